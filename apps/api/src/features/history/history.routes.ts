/**
 * The merchant's history over HTTP: the list, what it adds up to, the figures, the export and one
 * payment's page.
 * Schemas in, schemas out; the rules live in history.service.ts.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  exportQuerySchema,
  transactionFiltersSchema,
  transactionListQuerySchema,
} from '@mpesa/shared/contract';
import { clientAddress } from '../../lib/client-address.ts';
import { businessDayOf } from '../../lib/business-day.ts';
import { recordAudit } from '../../audit/audit.ts';
import { guardedSchema, type Gate, accessOf, uncached } from '../operators/index.ts';
import type { PaymentDeps } from '../payments/index.ts';
import { exportLimit } from './export-limit.ts';
import { exportFileName } from './export-file-name.ts';
import * as history from './history.service.ts';
import { ANSWERS, DESCRIBED } from './history.openapi.ts';
import { paymentPageRoute } from './payment-page.route.ts';

export interface HistoryRoutesOptions {
  deps: PaymentDeps;
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

type RoutesApp = Parameters<FastifyPluginAsyncZod>[0];

/** The merchant's history: the list, the figures, the export and one payment. */
export const historyRoutes: FastifyPluginAsyncZod<HistoryRoutesOptions> = async (
  app,
  {
    deps,
    exportLimits,
    businessTimeZone,
    phoneRetentionDays,
    historyGuard,
    exportGuard,
    paymentPageGuard,
    openPageRecogniser,
  },
) => {
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
  app.get(
    '/mpesa/transactions/totals',
    {
      ...guarded,
      schema: guardedSchema(
        {
          ...DESCRIBED.totals,
          querystring: transactionFiltersSchema,
          response: ANSWERS.totals,
        },
        historyGuard?.rule,
      ),
    },
    async (request) => ({
      success: true as const,
      data: await history.selectionTotals({ ...deps, businessTimeZone }, request.query),
    }),
  );
  exportRoute(app, deps, exports, businessTimeZone, exportGuard);

  paymentPageRoute(app, deps, paymentPageGuard, openPageRecogniser);
};

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
