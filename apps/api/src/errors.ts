/**
 * One error type with an HTTP status and a stable machine code, and one handler that turns every
 * error into `{success: false, code, message}` with a sentence a payer can read. 5xx details stay in
 * the log.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export class AppError extends Error {
  override name = 'AppError';
  readonly statusCode: number;
  readonly code: string;

  constructor(statusCode: number, code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.statusCode = statusCode;
    this.code = code;
  }
}

export const GENERIC_FAILURE = 'Something went wrong on our side. Please try again.';

/** Fastify's own 4xx errors, in words for people. */
const FASTIFY_MESSAGES: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'INVALID_BODY',
    message: 'The request body must be a JSON object',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send the request as JSON (Content-Type: application/json)',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'BODY_TOO_LARGE', message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'INVALID_BODY',
    message: 'The request body does not match its Content-Length',
  },
};

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .code(error.statusCode)
        .send({ success: false, code: error.code, message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      return reply.code(400).send({
        success: false,
        code: 'VALIDATION_ERROR',
        message: first?.message ?? 'The request is not valid',
      });
    }
    const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
    if (known) {
      return reply.code(error.statusCode ?? 400).send({ success: false, ...known });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // JSON syntax errors, prototype-poisoning keys and the like: the client's fault, said plainly.
      const message =
        error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
          ? 'The request body is not valid JSON'
          : error.message;
      return reply
        .code(status)
        .send({ success: false, code: error.code ?? 'BAD_REQUEST', message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .send({ success: false, code: 'INTERNAL_ERROR', message: GENERIC_FAILURE });
  });
}
