import { STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorCode, HTTP_REFUSAL_CODES } from '@mpesa/shared';
import { errorResponseSchema } from '@mpesa/shared/contract';
import { AppError, CLIENT_MISTAKES, answerError } from './errors.ts';

/** What answerError sent, through a reply that only records. */
function answered(error: FastifyError) {
  const sent: { status?: number; body?: unknown; headers: Record<string, string> } = {
    headers: {},
  };
  const reply = {
    code(status: number) {
      sent.status = status;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    send(body: unknown) {
      sent.body = body;
      return reply;
    },
  } as unknown as FastifyReply;
  const request = { log: { error: () => {} } } as unknown as FastifyRequest;
  answerError(error, request, reply);
  return sent;
}

// Fastify's own error classes, with the status each carries.
const fastifyErrors = createRequire(import.meta.url)('fastify/lib/errors.js') as Record<
  string,
  new (...args: string[]) => FastifyError
>;

describe('error answers', () => {
  const clientErrors = Object.entries(fastifyErrors)
    .map(([name, Make]) => {
      try {
        return [name, new Make('a', 'b', 'c')] as const;
      } catch {
        return undefined;
      }
    })
    .filter((entry) => entry !== undefined)
    .filter(([, error]) => (error.statusCode ?? 500) < 500)
    // Validation is answered from the schema's own message; this one is a programming error.
    .filter(
      ([name]) => !['FST_ERR_VALIDATION', 'FST_ERR_CTP_INSTANCE_ALREADY_STARTED'].includes(name),
    );

  it('finds Fastify’s client errors to check', () => {
    expect(clientErrors.map(([name]) => name)).toContain('FST_ERR_CTP_INVALID_JSON_BODY');
  });

  it.each(clientErrors)('answers %s with a code of ours and a sentence', (_name, error) => {
    const { body } = answered(error);
    const { code, message } = body as { code: string; message: string };
    expect(code).toMatch(/^[A-Z][A-Z_]+$/);
    expect(code).not.toMatch(/^FST_/);
    expect(message).not.toMatch(/FST_|Body is not valid JSON but content-type/);
    expect(message.length).toBeGreaterThan(15);
  });

  it('sends Retry-After, and the id of the payment a refusal is about, when it has them', () => {
    const { status, body, headers } = answered(
      new AppError(503, 'MPESA_BUSY', 'M-PESA is busy right now.', {
        retryAfterS: 30,
        transactionId: 'tx-1',
      }) as unknown as FastifyError,
    );
    expect(status).toBe(503);
    expect(headers['Retry-After']).toBe('30');
    expect(body).toEqual({
      success: false,
      code: 'MPESA_BUSY',
      message: 'M-PESA is busy right now.',
      transactionId: 'tx-1',
    });
  });

  it('hides what went wrong on our side', () => {
    const { status, body } = answered(new Error('secret detail') as FastifyError);
    expect(status).toBe(500);
    expect(body).toEqual({
      success: false,
      code: 'INTERNAL_ERROR',
      message: 'Something went wrong on our side. Please try again.',
    });
  });
});

describe('error codes', () => {
  it('names any other 4xx refusal by Node’s name for its status', () => {
    const fourHundreds = Object.entries(STATUS_CODES).filter(([status]) => status.startsWith('4'));
    expect(fourHundreds.length).toBeGreaterThan(20);
    for (const [status, name = ''] of fourHundreds) {
      const code = (HTTP_REFUSAL_CODES as Record<string, string>)[status];
      expect(code, status).toBe(name.toUpperCase().replace(/[^A-Z]+/g, '_'));
      const { status: sent, body } = answered(
        Object.assign(new Error('refused'), { statusCode: Number(status) }) as FastifyError,
      );
      expect(sent).toBe(Number(status));
      expect(body).toEqual({ success: false, code, message: `The request was refused: ${name}.` });
    }
  });

  it('lists every code the answers to Fastify’s and Node’s errors use', () => {
    for (const { code } of Object.values(CLIENT_MISTAKES)) {
      expect(ErrorCode.options).toContain(code);
    }
  });
});

describe('a validation error', () => {
  async function refusedBy(request: { url: string; payload?: object }) {
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.setErrorHandler(answerError);
    const response = { 200: z.object({}), 400: errorResponseSchema };
    app.post(
      '/pay',
      { schema: { body: z.object({ amount: z.number().int('Amount must be whole') }), response } },
      async () => ({}),
    );
    app.get(
      '/list',
      {
        schema: {
          querystring: z.object({ status: z.array(z.enum(['paid'])).optional() }),
          response,
        },
      },
      async () => ({}),
    );
    const answer = await app.inject({ method: request.payload ? 'POST' : 'GET', ...request });
    await app.close();
    expect(answer.statusCode).toBe(400);
    return answer.json();
  }

  it('names the field its first problem is in, through the route’s error schema', async () => {
    expect(await refusedBy({ url: '/pay', payload: { amount: 1.5 } })).toEqual({
      success: false,
      code: 'VALIDATION_ERROR',
      message: 'Amount must be whole',
      field: 'amount',
    });
    expect(await refusedBy({ url: '/list?status=unpaid' })).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'status',
    });
  });

  it('names no field when the problem is the whole body', async () => {
    const body = await refusedBy({ url: '/pay', payload: [1] });
    expect(body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(body).not.toHaveProperty('field');
  });
});
