/**
 * Reconciliation: what happened to a payment whose callback did not come, asked of M-PESA by STK
 * query, in the background or when the payer says they have paid.
 */
import type { Config } from '../../config.ts';
import type { PaymentDeps } from '../payments/index.ts';
import type { HistoryGuards } from '../operators/index.ts';
import type { ApiFeature } from '../feature.ts';
import { startReconciler } from './reconciler.ts';

interface ReconciliationContext {
  config: Config;
  payments: PaymentDeps;
}

/** Finding out what happened to a payment: by STK query when no callback comes, or when the payer asks. */
export const reconciliation: ApiFeature<
  ReconciliationContext,
  ReconciliationContext & { guards: HistoryGuards | undefined }
> = {
  routes: async (api, { payments: deps, guards }) => {
    const { payerCheckRoutes } = await import('./payer-check.routes.ts');
    await api.register(payerCheckRoutes, { deps, paymentPageGuard: guards?.paymentPage });
  },
  loops: ({ config, payments: deps }) => [startReconciler({ ...deps, settings: config.reconcile })],
};
