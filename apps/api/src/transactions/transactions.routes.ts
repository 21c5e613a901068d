/** HTTP only: schemas in, schemas out; the rules live in the services. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  initiatePaymentSchema,
  transactionFiltersSchema,
  transactionListQuerySchema,
} from '@mpesa/shared/contract';
import { callbackForbidden, notFound, tooManyRequests } from '../errors.ts';
import { addressList, clientAddress, limitKeyFor } from '../lib/client-address.ts';
import { applyCallback } from './callbacks.service.ts';
import { withIdempotencyKey } from './idempotency.ts';
import { floodLimit } from '../limits/flood-limit.ts';
import { exportLimit } from './export-limit.ts';
import * as service from './transactions.service.ts';
import {
  ANSWERS,
  CALLBACK_ACCEPTED,
  CALLBACK_BODY,
  CALLBACK_REJECTED,
  DESCRIBED,
  IDEMPOTENCY_KEY,
  PAYMENT_BODY,
} from './transactions.answers.ts';
import * as history from './history.service.ts';
import { businessDayOf } from '../lib/business-day.ts';
import type { PaymentDeps } from './transactions.service.ts';

export interface TransactionRoutesOptions {
  deps: PaymentDeps;
  callbackSecret: string;
  /** Addresses allowed to deliver callbacks; empty allows any. */
  callbackAllowedIps: readonly string[];
  /**
   * Payment requests per client address per window (0: no limit): `max` those that would send a
   * prompt, `requestsMax` all of them, valid or not.
   */
  rateLimit: { max: number; requestsMax: number; windowS: number };
  bodyLimits: { paymentBytes: number; callbackBytes: number };
  /**
   * How long after it was taken an Idempotency-Key that names no saved payment and has no answer
   * is taken for abandoned (its request failed with the database and could not free it).
   */
  idempotencyKeyAbandonedMs: number;
  /** CSV exports at once in this instance, and how long one may wait for a client reading nothing. */
  exportLimits: { max: number; stallMs: number };
  /** Where the history's business days begin (BUSINESS_TIME_ZONE). */
  businessTimeZone: string;
}

/** Compares secrets in constant time, whatever their lengths, so the path token cannot be guessed byte by byte. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export const transactionRoutes: FastifyPluginAsyncZod<TransactionRoutesOptions> = async (
  app,
  {
    deps,
    callbackSecret,
    callbackAllowedIps,
    rateLimit,
    bodyLimits,
    idempotencyKeyAbandonedMs,
    exportLimits,
    businessTimeZone,
  },
) => {
  const flood = floodLimit({ max: rateLimit.requestsMax, windowS: rateLimit.windowS });
  const exports = exportLimit(exportLimits);
  app.post(
    '/mpesa/stkpush',
    {
      bodyLimit: bodyLimits.paymentBytes,
      // Before the body is read: a flood costs as little as it can.
      onRequest: async (request) => {
        const waitS = flood.hit(limitKeyFor(clientAddress(request)), deps.now());
        if (waitS !== null) {
          throw tooManyRequests(waitS);
        }
      },
      schema: {
        ...DESCRIBED.stkpush,
        body: initiatePaymentSchema.meta(PAYMENT_BODY),
        headers: z.object({ 'idempotency-key': z.string().optional().describe(IDEMPOTENCY_KEY) }),
        response: ANSWERS.stkpush,
      },
    },
    async (request, reply) => {
      const limit = {
        key: `POST /api/mpesa/stkpush|${limitKeyFor(clientAddress(request))}`,
        max: rateLimit.max,
        windowS: rateLimit.windowS,
      };
      const run = (key?: string) =>
        service.initiatePayment({ ...deps, log: request.log }, request.body, limit, key);
      const key = request.headers['idempotency-key'];
      if (key === undefined) return run();
      const answer = await withIdempotencyKey(
        deps.db,
        { key, abandonedAfterMs: idempotencyKeyAbandonedMs },
        request.body,
        deps.now(),
        async () => {
          const body = await run(key);
          return { statusCode: 200, body, transactionId: body.transactionId };
        },
      );
      if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
      // A replay sends back whatever the first request was answered, success or failure.
      return reply.code(answer.statusCode as 200).send(answer.body as never);
    },
  );

  app.get(
    '/mpesa/transactions',
    {
      schema: {
        ...DESCRIBED.list,
        querystring: transactionListQuerySchema,
        response: ANSWERS.list,
      },
    },
    async (request) => {
      const { limit, cursor, ...filters } = request.query;
      const page = await history.listTransactions(
        { ...deps, businessTimeZone },
        { limit, cursor, filters },
      );
      return { success: true as const, ...page };
    },
  );

  app.get(
    '/mpesa/summary',
    {
      schema: { ...DESCRIBED.summary, response: ANSWERS.summary },
    },
    async () => ({
      success: true as const,
      data: await history.summary({ ...deps, businessTimeZone }),
    }),
  );

  // The same selection as CSV, streamed. Registered before ":id", which it would otherwise match.
  app.get(
    '/mpesa/transactions/export',
    {
      schema: {
        ...DESCRIBED.export,
        querystring: transactionFiltersSchema,
        response: ANSWERS.export,
      },
    },
    async (request, reply) => {
      const watch = exports.start(reply);
      const csv = await history.exportTransactions(
        { ...deps, businessTimeZone },
        request.query,
        watch.progress,
      );
      const today = businessDayOf(deps.now(), businessTimeZone);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="transactions-${today}.csv"`)
        .header('Cache-Control', 'no-store')
        .send(csv);
    },
  );

  app.get(
    '/mpesa/transactions/:id',
    {
      schema: {
        ...DESCRIBED.byId,
        // Any text: an id that cannot be ours (empty, too long) is simply not found.
        params: z.object({
          id: z.string().describe('The `transactionId` the payment was started with'),
        }),
        response: ANSWERS.byId,
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.getTransaction(deps, request.params.id),
    }),
  );

  // Daraja's result callback. Daraja signs nothing, so an unguessable path token (and, in
  // production, Safaricom's published source addresses) is what tells a genuine callback from a
  // forged one (PROTOCOL.md §4.3). The body is taken as text so that it is recorded exactly as it
  // arrived, even when it is not valid JSON.
  await app.register(async (plainScope) => {
    const callbackScope = plainScope.withTypeProvider<ZodTypeProvider>();
    callbackScope.removeAllContentTypeParsers();
    callbackScope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: bodyLimits.callbackBytes },
      (_request, body, done) => {
        done(null, body);
      },
    );
    const allowed = addressList(callbackAllowedIps);
    callbackScope.post(
      '/mpesa/callback/:secret',
      // The router refuses a parameter longer than the longest allowed secret (414).
      {
        schema: {
          ...DESCRIBED.callback,
          params: z.object({ secret: z.string().describe('MPESA_CALLBACK_SECRET') }),
          // Taken as text, whatever it holds: described here, checked by the callback parser.
          body: z.unknown().meta(CALLBACK_BODY),
          response: ANSWERS.callback,
        },
      },
      async (request, reply) => {
        const ip = clientAddress(request);
        if (callbackAllowedIps.length > 0 && !allowed(ip)) {
          request.log.warn({ ip }, 'callback from an address not on the allow-list refused');
          throw callbackForbidden();
        }
        if (!sameSecret(request.params.secret, callbackSecret)) {
          request.log.warn({ ip }, 'callback with a wrong secret refused');
          throw notFound();
        }
        const raw = typeof request.body === 'string' ? request.body : '';
        const result = await applyCallback({ ...deps, log: request.log }, raw, ip);
        if (result.outcome === 'invalid') {
          return reply.code(400).send(CALLBACK_REJECTED);
        }
        return reply.code(200).send(CALLBACK_ACCEPTED);
      },
    );
  });
};
