/** HTTP only: schemas in, schemas out; the rules live in transactions.service.ts. */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponseSchema,
  initiatePaymentResponseSchema,
  initiatePaymentSchema,
  transactionListResponseSchema,
  transactionResponseSchema,
} from '@mpesa/shared/contract';
import { AppError } from '../errors.ts';
import * as service from './transactions.service.ts';
import type { PaymentDeps } from './transactions.service.ts';

export interface TransactionRoutesOptions {
  deps: PaymentDeps;
  callbackSecret: string;
}

const errorResponses = {
  400: errorResponseSchema,
  404: errorResponseSchema,
  429: errorResponseSchema,
};

/** Compares secrets in constant time, whatever their lengths, so the path token cannot be guessed byte by byte. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export const transactionRoutes: FastifyPluginAsyncZod<TransactionRoutesOptions> = async (
  app,
  { deps, callbackSecret },
) => {
  app.post(
    '/mpesa/stkpush',
    {
      schema: {
        body: initiatePaymentSchema,
        response: {
          200: initiatePaymentResponseSchema,
          ...errorResponses,
          502: errorResponseSchema,
          503: errorResponseSchema,
          504: errorResponseSchema,
        },
      },
    },
    async (request) => service.initiatePayment({ ...deps, log: request.log }, request.body),
  );

  app.get(
    '/mpesa/transactions',
    {
      schema: {
        querystring: z.object({
          limit: z.coerce
            .number({ error: 'limit must be a number' })
            .int('limit must be a whole number')
            .min(1, 'limit must be at least 1')
            .max(500, 'limit must be at most 500')
            .default(100),
        }),
        response: { 200: transactionListResponseSchema, 400: errorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.listTransactions(deps, request.query.limit),
    }),
  );

  app.get(
    '/mpesa/transactions/:id',
    {
      schema: {
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 200: transactionResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.getTransaction(deps, request.params.id),
    }),
  );

  // Daraja's result callback. Daraja signs nothing, so the unguessable path token is what tells a
  // genuine callback from a forged one (PROTOCOL.md §4.3). The body is taken as text so that it is
  // recorded exactly as it arrived, even when it is not valid JSON.
  await app.register(async (plainScope) => {
    const callbackScope = plainScope.withTypeProvider<ZodTypeProvider>();
    callbackScope.removeAllContentTypeParsers();
    callbackScope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });
    callbackScope.post(
      '/mpesa/callback/:secret',
      { schema: { params: z.object({ secret: z.string().max(200) }) } },
      async (request, reply) => {
        if (!sameSecret(request.params.secret, callbackSecret)) {
          request.log.warn({ ip: request.ip }, 'callback with a wrong secret refused');
          throw new AppError(404, 'NOT_FOUND', 'Not found');
        }
        const raw = typeof request.body === 'string' ? request.body : '';
        const result = await service.applyCallback({ ...deps, log: request.log }, raw, request.ip);
        if (result.outcome === 'invalid') {
          return reply
            .code(400)
            .send({ ResultCode: 1, ResultDesc: 'Rejected: not an STK callback' });
        }
        return reply.code(200).send({ ResultCode: 0, ResultDesc: 'Accepted' });
      },
    );
  });
};
