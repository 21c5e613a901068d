/**
 * Refunds: money back by M-PESA's Reversal API, its Results, and the recovery of a refund
 * whose Result did not come.
 */
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Config } from '../../config.ts';
import { resultRoute } from '../../callbacks/callback-paths.ts';
import type { ApiFeature } from '../feature.ts';
import type { RefundDeps } from './refunds.service.ts';
import type { RefundResultKind } from './refund-results.ts';
import { reversalCallback } from './reversal.callback.ts';
import { refundStatusCallback } from './refund-status.callback.ts';
import { startRefundRecovery } from './refund-recovery.ts';

export { refundPolicy } from './refunds.service.ts';
export type { RefundDeps } from './refunds.service.ts';

interface RefundsContext {
  config: Config;
  refunds: RefundDeps;
}

/**
 * Money back by reversal: an owner's refund, whatever HISTORY_ACCESS says, its Results, and the
 * recovery of a refund whose Result did not come (beside the reconciler).
 */
export const refunds: ApiFeature<
  RefundsContext,
  RefundsContext & { ownerGate: onRequestAsyncHookHandler[] },
  RefundResultKind
> = {
  routes: async (api, { refunds: deps, ownerGate }) => {
    const { refundRoutes } = await import('./refunds.routes.ts');
    await api.register(refundRoutes, { deps, ownerGate });
  },
  callbacks: {
    reversal: {
      route: resultRoute('/reversal'),
      handler: ({ refunds: deps }) => reversalCallback(deps),
    },
    'refund-status': {
      route: resultRoute('/refund-status'),
      handler: ({ refunds: deps }) => refundStatusCallback(deps),
    },
  },
  loops: ({ config, refunds: deps }) => [startRefundRecovery(deps, config.reconcile.intervalMs)],
};
