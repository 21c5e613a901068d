/**
 * What the app is built from (`AppDeps`), and what its features are given from it (`featureContext`,
 * with the payments' and the refunds' dependencies). app.ts puts them together.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { DbHandle } from './db/create-db.ts';
import type { DarajaClient, DarajaMoneyClient } from './daraja/daraja-client.ts';
import type { LoggerSettings } from './plugins/request-log.ts';
import type { Resolve } from './features/webhooks/index.ts';
import { paymentWritesFor, type PaymentDeps } from './features/payments/index.ts';
import { callbackUrls } from './callbacks/callback-paths.ts';
import { CALLBACK_ROUTES, type FeatureContext } from './features/index.ts';
import { refundPolicy, type RefundDeps } from './features/refunds/index.ts';

export interface AppDeps extends LoggerSettings {
  config: Config;
  callbackSecret: string;
  database: DbHandle;
  daraja: DarajaClient;
  /** Reversals, transaction status and C2B registration; none: refunds and till payments are off. */
  money?: DarajaMoneyClient;
  /**
   * Register the C2B URLs with Daraja once listening, when MPESA_C2B_REGISTER=start (server.ts
   * does; features/c2b/c2b-registration.ts).
   */
  registerC2b?: boolean;
  /** Run the reconciliation loop in this process (server.ts does; most tests call it directly). */
  reconcile?: boolean;
  now?: () => Date;
  /** DNS for webhook URLs (node:dns unless a test gives its own: features/webhooks/url-guard.ts). */
  resolve?: Resolve;
}

/** Where Daraja reaches this app's callbacks. */
export const callbackUrlsOf = (deps: AppDeps) =>
  callbackUrls(CALLBACK_ROUTES, deps.config.mpesa.callbackBaseUrl, deps.callbackSecret);

/** What the payment routes, the callbacks and the reconciler work with. */
export function paymentDepsFor(deps: AppDeps, app: FastifyInstance): PaymentDeps {
  const { config } = deps;
  return {
    db: deps.database.db,
    dialect: deps.database.dialect,
    // Once, for the database opened: its form of the payment path's writes.
    writes: paymentWritesFor(deps.database.dialect),
    daraja: deps.daraja,
    callbackUrl: callbackUrlsOf(deps)('stk-push'),
    log: app.log,
    now: deps.now ?? (() => new Date()),
    phoneCooldownS: config.limits.phoneCooldownS,
    reconcileAfterS: config.reconcile.firstCheckS,
    // The slowest Daraja exchange, as the reconciliation lease measures it.
    pushDeadlineMs: config.reconcile.leaseMs,
    refunds: refundPolicy({ money: deps.money, settings: config.refunds }),
  };
}

/** What refunds work with: the Result APIs, their callback URLs and the refund settings. */
export function refundDepsFor(deps: AppDeps, paymentDeps: PaymentDeps): RefundDeps {
  const { config } = deps;
  return {
    db: paymentDeps.db,
    now: paymentDeps.now,
    log: paymentDeps.log,
    money: deps.money,
    callbackUrlFor: callbackUrlsOf(deps),
    settings: config.refunds,
    partyB: config.mpesa.partyB,
    leaseMs: config.reconcile.leaseMs,
  };
}

/** What every feature may take from the app (features/index.ts). */
export function featureContext(deps: AppDeps, app: FastifyInstance): FeatureContext {
  const payments = paymentDepsFor(deps, app);
  return {
    config: deps.config,
    database: deps.database,
    now: payments.now,
    log: app.log,
    money: deps.money,
    callbackUrlFor: callbackUrlsOf(deps),
    payments,
    refunds: refundDepsFor(deps, payments),
    resolve: deps.resolve,
    registerC2b: deps.registerC2b ?? false,
  };
}
