/**
 * The merchant's history: the list, the figures, the CSV export, a payment's page and timeline.
 */
import type { Config } from '../../config.ts';
import type { PaymentDeps } from '../payments/index.ts';
import { openPaymentPageRecogniser, type HistoryGuards } from '../operators/index.ts';
import type { ApiFeature } from '../feature.ts';

interface HistoryContext {
  config: Config;
  payments: PaymentDeps;
  guards: HistoryGuards | undefined;
}

/** The merchant's history: the list, the figures, the CSV export, a payment's page and timeline. */
export const history: ApiFeature<unknown, HistoryContext> = {
  routes: async (api, { config, payments: deps, guards }) => {
    const { historyRoutes } = await import('./history.routes.ts');
    const { transactionEventRoutes } = await import('./events.routes.ts');
    const { limits } = config;
    await api.register(historyRoutes, {
      deps,
      historyGuard: guards?.read,
      exportGuard: guards?.export,
      paymentPageGuard: guards?.paymentPage,
      openPageRecogniser: guards
        ? undefined
        : openPaymentPageRecogniser({ config, db: deps.db, now: deps.now }),
      exportLimits: { max: limits.exportsRunning, stallMs: limits.exportStallMs },
      businessTimeZone: config.businessTimeZone,
      phoneRetentionDays: config.phoneRetentionDays,
    });
    await api.register(transactionEventRoutes, { deps, historyGuard: guards?.read });
  },
};

/** How the history's CSV writes a cell, a phone and a time: the payouts' CSV writes them alike. */
export { CSV_BOM, csvLine, spreadsheetPhone, spreadsheetTime, zoneLabel } from './history-csv.ts';
