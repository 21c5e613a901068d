/**
 * `POST /api/mpesa/stkpush`, HTTP only: schemas in, schemas out; the rules live in the services.
 * The history's routes are the history feature's (features/history/history.routes.ts), and
 * Daraja's result callback comes by the callback routes (stk-push.callback.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { initiatePaymentSchema } from '@mpesa/shared/contract';
import { tooManyRequests } from '../../errors.ts';
import { clientAddress, limitKeyFor } from '../../lib/client-address.ts';
import { promptOnce } from './prompt-once.ts';
import { floodLimit } from '../../limits/flood-limit.ts';
import * as service from './transactions.service.ts';
import { ANSWERS, DESCRIBED, IDEMPOTENCY_KEY, PAYMENT_BODY } from './payments.openapi.ts';
import type { PaymentDeps } from './transactions.service.ts';
import { accessOf, guardedSchema, type Gate } from '../operators/index.ts';

export interface TransactionRoutesOptions {
  deps: PaymentDeps;
  /**
   * Payment requests per client address per window (0: no limit): `max` those that would send a
   * prompt, `requestsMax` all of them, valid or not.
   */
  rateLimit: { max: number; requestsMax: number; windowS: number };
  bodyLimits: { paymentBytes: number };
  /**
   * How long after it was taken an Idempotency-Key that names no saved payment and has no answer
   * is taken for abandoned (its request failed with the database and could not free it).
   */
  idempotencyKeyAbandonedMs: number;
  /** Run before a payment request (HISTORY_ACCESS=operators: features/operators/payment-access.ts). */
  paymentGuard?: Gate | undefined;
}

export type RoutesApp = Parameters<FastifyPluginAsyncZod>[0];

/**
 * Whom a payment request counts against (STKPUSH_RATE_LIMIT): the client's address for a payer,
 * or the shop's operator or API key that sent it (HISTORY_ACCESS=operators), so that strangers on
 * the shop's network cannot use up the shop's own requests, nor the shop theirs.
 */
function limitSubject(request: FastifyRequest): string {
  const actor = accessOf(request);
  if (actor?.kind === 'operator') return `operator:${actor.operatorId}`;
  if (actor?.kind === 'key') return `key:${actor.keyId}`;
  return limitKeyFor(clientAddress(request));
}

export const transactionRoutes: FastifyPluginAsyncZod<TransactionRoutesOptions> = async (
  app,
  options,
) => {
  paymentRoute(app, options);
};

/** POST /mpesa/stkpush: a payment, at most once per Idempotency-Key. */
function paymentRoute(
  app: RoutesApp,
  {
    deps,
    rateLimit,
    bodyLimits,
    idempotencyKeyAbandonedMs,
    paymentGuard,
  }: TransactionRoutesOptions,
): void {
  const flood = floodLimit({ max: rateLimit.requestsMax, windowS: rateLimit.windowS });
  const limitFlood = async (request: FastifyRequest) => {
    const waitS = flood.hit(limitKeyFor(clientAddress(request)), deps.now());
    if (waitS !== null) {
      throw tooManyRequests(waitS);
    }
  };
  app.post(
    '/mpesa/stkpush',
    {
      bodyLimit: bodyLimits.paymentBytes,
      // Before the body is read: a flood costs as little as it can.
      onRequest: paymentGuard ? [limitFlood, paymentGuard.onRequest] : limitFlood,
      schema: guardedSchema(
        {
          ...DESCRIBED.stkpush,
          body: initiatePaymentSchema.meta(PAYMENT_BODY),
          headers: z.object({
            'idempotency-key': z.string().optional().describe(IDEMPOTENCY_KEY),
          }),
          response: ANSWERS.stkpush,
        },
        paymentGuard?.rule,
        { open: true },
      ),
    },
    async (request, reply) => {
      const limit = {
        key: `POST /api/mpesa/stkpush|${limitSubject(request)}`,
        max: rateLimit.max,
        windowS: rateLimit.windowS,
      };
      return promptOnce(
        reply,
        deps,
        { key: request.headers['idempotency-key'], abandonedAfterMs: idempotencyKeyAbandonedMs },
        request.body,
        (key) => service.initiatePayment({ ...deps, log: request.log }, request.body, limit, key),
      );
    },
  );
}
