/**
 * HTTP only: schemas in, schemas out; the rules live in the services. Daraja's result callback has
 * its own routes (callbacks/callback.routes.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  initiatePaymentSchema,
  exportQuerySchema,
  transactionListQuerySchema,
} from '@mpesa/shared/contract';
import { tooManyRequests } from '../../errors.ts';
import { clientAddress, limitKeyFor } from '../../lib/client-address.ts';
import { withIdempotencyKey } from './idempotency.ts';
import { floodLimit } from '../../limits/flood-limit.ts';
import { exportLimit } from '../history/export-limit.ts';
import { exportFileName } from '../history/export-file-name.ts';
import * as service from './transactions.service.ts';
import { ANSWERS, DESCRIBED, IDEMPOTENCY_KEY, PAYMENT_BODY } from './payments.openapi.ts';
import * as history from '../history/history.service.ts';
import { businessDayOf } from '../../lib/business-day.ts';
import type { PaymentDeps } from './transactions.service.ts';
import { recordAudit } from '../../audit/audit.ts';
import { guardedSchema, type Gate } from '../operators/access-doc.ts';
import { accessOf, uncached } from '../operators/require-operator.ts';
import { paymentPageRoute } from './payment-page.route.ts';

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
  /** CSV exports at once in this instance, and how long one may wait for a client reading nothing. */
  exportLimits: { max: number; stallMs: number };
  /** Where the history's business days begin (BUSINESS_TIME_ZONE). */
  businessTimeZone: string;
  /** PHONE_RETENTION_DAYS, which the list's answer states when it is set (phone-retention.ts). */
  phoneRetentionDays?: number | undefined;
  /**
   * Run before the merchant's history routes (HISTORY_ACCESS=operators: an operator, or a key
   * that reads payments);
   * never before the payer's own page, GET /mpesa/transactions/:id.
   */
  historyGuard?: Gate | undefined;
  /** Run before the export instead (HISTORY_ACCESS=operators: an owner, or a key that reads). */
  exportGuard?: Gate | undefined;
  /** Run before a payment request (HISTORY_ACCESS=operators: features/operators/payment-access.ts). */
  paymentGuard?: Gate | undefined;
  /**
   * Run before a payment's page (HISTORY_ACCESS=operators): lets everyone through, and recognises
   * those who may read the history, who are shown the merchant's view; anyone else the payer's.
   */
  paymentPageGuard?: Gate | undefined;
  /**
   * HISTORY_ACCESS=open: recognises a signed-in operator on a payment's page, who is shown the
   * merchant's view; anyone else the page as the specification shows it to all.
   */
  openPageRecogniser?: Gate | undefined;
}

export type RoutesApp = Parameters<FastifyPluginAsyncZod>[0];

export const transactionRoutes: FastifyPluginAsyncZod<TransactionRoutesOptions> = async (
  app,
  options,
) => {
  paymentRoute(app, options);
  historyRoutes(app, options);
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
}

/** The merchant's history: the list, the figures, the export and one payment. */
function historyRoutes(
  app: RoutesApp,
  {
    deps,
    exportLimits,
    businessTimeZone,
    phoneRetentionDays,
    historyGuard,
    exportGuard,
    paymentPageGuard,
    openPageRecogniser,
  }: TransactionRoutesOptions,
): void {
  const exports = exportLimit(exportLimits);
  // The shop's: kept by no cache on the way.
  const guarded = historyGuard ? { onRequest: [uncached(), historyGuard.onRequest] } : {};
  app.get(
    '/mpesa/transactions',
    {
      ...guarded,
      schema: guardedSchema(
        {
          ...DESCRIBED.list,
          querystring: transactionListQuerySchema,
          response: ANSWERS.list,
        },
        historyGuard?.rule,
      ),
    },
    async (request) => {
      const { limit, cursor, ...filters } = request.query;
      const page = await history.listTransactions(
        { ...deps, businessTimeZone },
        { limit, cursor, filters },
      );
      const retention = phoneRetentionDays === undefined ? {} : { phoneRetentionDays };
      return { success: true as const, ...page, ...retention };
    },
  );

  app.get(
    '/mpesa/summary',
    {
      ...guarded,
      schema: guardedSchema(
        { ...DESCRIBED.summary, response: ANSWERS.summary },
        historyGuard?.rule,
      ),
    },
    async () => ({
      success: true as const,
      data: await history.summary({ ...deps, businessTimeZone }),
    }),
  );

  // Before ":id", which it would otherwise match.
  exportRoute(app, deps, exports, businessTimeZone, exportGuard);

  paymentPageRoute(app, deps, paymentPageGuard, openPageRecogniser);
}

/** GET /mpesa/transactions/export: the history's selection as CSV, streamed. */
function exportRoute(
  app: RoutesApp,
  deps: PaymentDeps,
  exports: ReturnType<typeof exportLimit>,
  businessTimeZone: string,
  gate: Gate | undefined,
): void {
  app.get(
    '/mpesa/transactions/export',
    {
      ...(gate ? { onRequest: [uncached(), gate.onRequest] } : {}),
      schema: guardedSchema(
        {
          ...DESCRIBED.export,
          querystring: exportQuerySchema,
          response: ANSWERS.export,
        },
        gate?.rule,
      ),
    },
    async (request, reply) => {
      const { lang, ...filters } = request.query;
      const watch = exports.start(reply);
      await recordExport(deps, request, filters);
      const csv = await history.exportTransactions(
        { ...deps, businessTimeZone },
        filters,
        watch.progress,
        lang,
      );
      const name = exportFileName(filters, businessDayOf(deps.now(), businessTimeZone));
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .header('Cache-Control', 'no-store')
        .send(csv);
    },
  );
}

/**
 * An export is in the audit trail: who (an operator, a key; anonymous with HISTORY_ACCESS=open,
 * where the export is open to all), when, from where, and which payments it selected.
 */
async function recordExport(deps: PaymentDeps, request: FastifyRequest, filters: object) {
  const actor = accessOf(request);
  await recordAudit(deps.db, {
    at: deps.now(),
    actorKind: actor?.kind ?? 'anonymous',
    actor: actor?.name ?? null,
    action: 'export',
    // The search text is often a payer's number: the trail says only that there was one.
    detail: JSON.stringify({ ...filters, ...('q' in filters && filters.q ? { q: '…' } : {}) }),
    address: clientAddress(request),
  });
}
