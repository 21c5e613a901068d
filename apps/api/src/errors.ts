/**
 * One error type with an HTTP status and a stable machine code, and one mapping that turns every
 * error into `{success: false, code, message}` with a sentence a payer can read: our own errors,
 * Fastify's (in a route, in the router, on a broken connection) and Node's. 5xx details stay in
 * the log.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, unavailableReason } from './db/unavailable.ts';

export interface AppErrorOptions {
  cause?: unknown;
  /** Sent as `Retry-After`: when asking again can succeed, in seconds. */
  retryAfterS?: number;
  /** The saved payment the refusal is about (a push M-PESA refused is kept as failed). */
  transactionId?: string;
  /** Sent as `Allow` with a 405: the methods the address does answer. */
  allow?: readonly string[];
}

export class AppError extends Error {
  override name = 'AppError';
  readonly statusCode: number;
  readonly code: string;
  readonly retryAfterS: number | undefined;
  readonly transactionId: string | undefined;
  readonly allow: readonly string[] | undefined;

  constructor(statusCode: number, code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.statusCode = statusCode;
    this.code = code;
    this.retryAfterS = options.retryAfterS;
    this.transactionId = options.transactionId;
    this.allow = options.allow;
  }
}

export const GENERIC_FAILURE = 'Something went wrong on our side. Please try again.';

/** Any address with nothing behind it, in the API (and a callback path with a wrong secret). */
export const NOT_FOUND_MESSAGE = 'There is nothing at this address. Check the URL.';

/** A JSON body with a key that could poison objects (`__proto__`, `constructor.prototype`). */
export const forbiddenKey = () =>
  new AppError(
    400,
    'FORBIDDEN_KEY',
    'The request body must not use the keys "__proto__" or "constructor.prototype"',
  );

/** A request that arrives while the server closes: a load balancer tries another. */
export const shuttingDown = () =>
  new AppError(503, 'SHUTTING_DOWN', 'The server is restarting. Please try again.');

/** How soon a client is told to ask again while the database is unavailable, in seconds. */
export const DATABASE_RETRY_AFTER_S = 5;

export const DATABASE_UNAVAILABLE_MESSAGE =
  'Our database is not answering right now. Please try again in a few seconds.';

/**
 * The database cannot be reached, or cannot take the work now (db/unavailable.ts): an outage, not
 * a fault in the request, and one that passes. A callback answered so is not taken for accepted.
 */
export const databaseUnavailable = (
  options: { cause?: unknown; transactionId?: string; message?: string } = {},
) =>
  new AppError(503, 'DATABASE_UNAVAILABLE', options.message ?? DATABASE_UNAVAILABLE_MESSAGE, {
    retryAfterS: DATABASE_RETRY_AFTER_S,
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    ...(options.transactionId === undefined ? {} : { transactionId: options.transactionId }),
  });

/** A known address asked with a method it does not answer (405, with `Allow`). */
export function methodNotAllowed(method: string, allowed: readonly string[]): AppError {
  const shown = allowed.filter((each) => each !== 'HEAD' && each !== 'OPTIONS');
  const list = shown.length > 1 ? `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}` : shown[0];
  return new AppError(
    405,
    'METHOD_NOT_ALLOWED',
    `This address does not answer ${method}: use ${list ?? allowed.join(', ')}.`,
    { allow: allowed },
  );
}

interface Answer {
  statusCode: number;
  code: string;
  message: string;
}

/** Fastify's and Node's errors that are the client's doing, in words for people. */
export const CLIENT_MISTAKES: Record<string, Answer> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    statusCode: 400,
    code: 'INVALID_BODY',
    message: 'The request body must be a JSON object',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    statusCode: 400,
    code: 'INVALID_JSON',
    message: 'The request body is not valid JSON',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    statusCode: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send the request as JSON (Content-Type: application/json)',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    statusCode: 413,
    code: 'BODY_TOO_LARGE',
    message: 'The request body is too large',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    statusCode: 400,
    code: 'INVALID_BODY',
    message: 'The request body does not match its Content-Length',
  },
  FST_ERR_NOT_FOUND: { statusCode: 404, code: 'NOT_FOUND', message: NOT_FOUND_MESSAGE },
  FST_ERR_INVALID_URL: {
    statusCode: 400,
    code: 'BAD_URL',
    message: 'The address is not valid',
  },
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: {
    statusCode: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send the request as JSON (Content-Type: application/json)',
  },
  FST_ERR_ROUTE_MISSING_CONTENT: {
    statusCode: 400,
    code: 'INVALID_BODY',
    message: 'The request body must be a JSON object',
  },
  FST_ERR_BAD_URL: {
    statusCode: 400,
    code: 'BAD_URL',
    message: 'The address is not valid: it has a broken %-escape',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    statusCode: 414,
    code: 'URL_TOO_LONG',
    message: 'The address is too long',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    statusCode: 408,
    code: 'REQUEST_TIMEOUT',
    message: 'The request took too long to arrive',
  },
  HPE_HEADER_OVERFLOW: {
    statusCode: 431,
    code: 'HEADERS_TOO_LARGE',
    message: 'The request headers are too large',
  },
};

/** Anything else Node cannot read on a connection (a broken chunked body, a client gone mid-request). */
const UNREADABLE: Answer = {
  statusCode: 400,
  code: 'BAD_REQUEST',
  message: 'The request could not be read: it is not valid HTTP',
};

/** The answer to an error, or undefined when it is ours to fix (a 5xx that is not an AppError). */
function answerFor(error: FastifyError): Answer | undefined {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    return {
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      message: error.validation[0]?.message ?? 'The request is not valid',
    };
  }
  const known = error.code ? CLIENT_MISTAKES[error.code] : undefined;
  if (known) return known;
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Any other refusal from Fastify or a plugin: said by its HTTP name, nothing more.
    const name = STATUS_CODES[status] ?? 'Bad Request';
    return {
      statusCode: status,
      code: name.toUpperCase().replace(/[^A-Z]+/g, '_'),
      message: `The request was refused: ${name}.`,
    };
  }
  return undefined;
}

/**
 * The one error handler: the app's (`setErrorHandler`), and the router's (`frameworkErrors`: what
 * it refuses before any route is involved, such as an overlong path parameter or a broken %-escape).
 */
export function answerError(thrown: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  let error = thrown;
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) {
    request.log.warn(unavailableReason(error), 'database unavailable: answered 503');
    error = databaseUnavailable({ cause: error }) as AppError & FastifyError;
  }
  const answer = answerFor(error);
  if (!answer) request.log.error({ err: error }, 'request failed');
  const { statusCode, code, message } = answer ?? {
    statusCode: 500,
    code: 'INTERNAL_ERROR',
    message: GENERIC_FAILURE,
  };
  if (error instanceof AppError) {
    if (error.retryAfterS !== undefined) reply.header('Retry-After', String(error.retryAfterS));
    if (error.allow !== undefined) reply.header('Allow', error.allow.join(', '));
    if (error.transactionId !== undefined) {
      return reply
        .code(statusCode)
        .send({ success: false, code, message, transactionId: error.transactionId });
    }
  }
  return reply.code(statusCode).send({ success: false, code, message });
}

/**
 * Fastify's `clientErrorHandler`: errors Node raises on a connection before or while a request is
 * read (malformed HTTP, a broken chunked body, a header or request timeout). They are the client's
 * doing, so they are worth a debug line, never an error; the raw packet is not logged, since it
 * can hold a callback path's secret.
 */
export function answerClientError(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ code: error.code, reason: error.message }, 'client error');
  const { statusCode, code, message } = (error.code && CLIENT_MISTAKES[error.code]) || UNREADABLE;
  // A response still being prepared for an earlier request on this connection (one that arrived
  // whole, pipelined, and waits for Daraja) goes out first: a client reading answers in order must
  // not take ours for its. The request that broke gets our answer at once, if nothing of its own
  // answer has gone yet.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  const refuse = () => {
    if (socket.writable && !(inFlight?.headersSent && !inFlight.writableFinished)) {
      socket.write(rawAnswer({ statusCode, code, message }));
    }
    socket.destroy(error);
  };
  if (inFlight?.req.complete && !inFlight.writableFinished && !inFlight.destroyed) {
    inFlight.once('finish', refuse);
    inFlight.once('close', () => socket.destroy(error));
    return;
  }
  refuse();
}

/** A whole HTTP/1.1 answer in our shape, for a socket no Fastify reply is attached to. */
export function rawAnswer({ statusCode, code, message }: Answer): string {
  const body = JSON.stringify({ success: false, code, message });
  return (
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

/**
 * What Node answers on its own, before Fastify sees a request, answered in our shape instead: an
 * `Expect` it cannot meet (417), and CONNECT (405; this is no proxy). A missing Host header is
 * refused in `onRequest` (Node's own check is turned off for it).
 */
export function answerNodeRefusals(server: Server): void {
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify({
      success: false,
      code: 'EXPECTATION_FAILED',
      message: 'The request asks for an Expect the server does not support',
    });
    response.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    response.end(body);
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.end(
      rawAnswer({
        statusCode: 405,
        code: 'METHOD_NOT_ALLOWED',
        message: 'CONNECT is not supported: this is not a proxy',
      }),
    );
  });
}
