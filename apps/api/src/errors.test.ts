import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, answerError } from './errors.ts';

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
