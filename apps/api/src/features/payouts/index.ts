/**
 * Payouts: money out of the shop by M-PESA's B2C (to phones) and B2B (to paybills and tills),
 * proposed by one person and approved by a second owner, sent once, their Results, and the
 * recovery of a payout whose answer or Result was lost.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { DbHandle } from '../../db/create-db.ts';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import type { CallbackUrlFor } from '../../callbacks/callback-paths.ts';
import { resultRoute } from '../../callbacks/callback-paths.ts';
import { resultCallback } from '../../callbacks/result-callback.ts';
import { authDepsFor, requireAccess } from '../operators/index.ts';
import type { ApiFeature } from '../feature.ts';
import type { PayoutDeps } from './payouts.service.ts';
import { takePayoutResult, type PayoutResultKind } from './payout-results.ts';
import { startPayoutRecovery } from './payout-recovery.ts';

export type { PayoutDeps } from './payouts.service.ts';

interface PayoutsContext {
  config: Config;
  database: DbHandle;
  now: () => Date;
  log: FastifyBaseLogger;
  money: DarajaMoneyClient | undefined;
  callbackUrlFor: CallbackUrlFor;
}

export function payoutDepsFor(context: PayoutsContext): PayoutDeps {
  const { config } = context;
  return {
    db: context.database.db,
    now: context.now,
    log: context.log,
    money: context.money,
    callbackUrlFor: context.callbackUrlFor,
    settings: config.payouts,
    timeZone: config.businessTimeZone,
    leaseMs: config.reconcile.leaseMs,
  };
}

const described = (kind: PayoutResultKind, summary: string, description: string) => ({
  route: resultRoute(`/${kind}`),
  handler: (context: PayoutsContext) =>
    resultCallback({ summary, description }, ({ raw, ip, log }) =>
      takePayoutResult({ ...payoutDepsFor(context), log }, kind, { raw, ip }),
    ),
});

export const payouts: ApiFeature<PayoutsContext, PayoutsContext, PayoutResultKind> = {
  routes: async (api, context) => {
    const { payoutRoutes } = await import('./payouts.routes.ts');
    const auth = authDepsFor({ config: context.config, db: context.database.db, now: context.now });
    const gate = (role: 'viewer' | 'cashier' | 'owner') => [requireAccess(auth, { role })];
    await api.register(payoutRoutes, {
      deps: payoutDepsFor(context),
      gates: { viewer: gate('viewer'), cashier: gate('cashier'), owner: gate('owner') },
    });
  },
  callbacks: {
    'payout-b2c': described(
      'payout-b2c',
      'A B2C payout’s Result: whether a payout to a phone was paid',
      'Daraja posts the Result of a B2C payment request here (docs/daraja-protocol.md §M4.3): stored as it arrived, whatever it holds, and applied to its payout.',
    ),
    'payout-b2b': described(
      'payout-b2b',
      'A B2B payout’s Result: whether a payment to a paybill or till was made',
      'Daraja posts the Result of a B2B payment request here (docs/daraja-protocol.md §M8.1): stored as it arrived, whatever it holds, and applied to its payout.',
    ),
    'payout-status': described(
      'payout-status',
      'A transaction status Result about a payout',
      'Daraja posts here the answer to a transaction status query about a payout whose answer or Result was lost, or whose charge is not known yet (docs/daraja-protocol.md §M5).',
    ),
  },
  loops: (context) => [
    startPayoutRecovery(payoutDepsFor(context), context.config.reconcile.intervalMs),
  ],
};
