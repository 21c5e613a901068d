/**
 * What the app is built from (`AppDeps`), and what each part of it is given: the payments, the
 * refunds, the C2B callbacks and receipt checks, and one handler per kind of callback. app.ts puts
 * them together.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { DbHandle } from './db/create-db.ts';
import type { DarajaClient, DarajaMoneyClient } from './daraja/daraja-client.ts';
import type { LoggerSettings } from './plugins/request-log.ts';
import type { Resolve } from './webhooks/url-guard.ts';
import type { PaymentDeps } from './transactions/transactions.service.ts';
import { paymentWritesFor } from './transactions/payment-writes-for.ts';
import type { CallbackHandler } from './callbacks/callback.routes.ts';
import type { CallbackKind } from './callbacks/callback-kinds.ts';
import { callbackUrls } from './callbacks/callback-paths.ts';
import { keptOnlyCallback } from './callbacks/kept-callback.ts';
import { stkPushCallback } from './callbacks/stk-push.callback.ts';
import { reversalCallback } from './callbacks/reversal.callback.ts';
import { refundStatusCallback } from './callbacks/refund-status.callback.ts';
import { c2bConfirmationCallback } from './callbacks/c2b-confirmation.callback.ts';
import { c2bValidationCallback } from './callbacks/c2b-validation.callback.ts';
import { receiptStatusCallback } from './callbacks/receipt-status.callback.ts';
import { refundPolicy, type RefundDeps } from './refunds/refunds.service.ts';

export interface AppDeps extends LoggerSettings {
  config: Config;
  callbackSecret: string;
  database: DbHandle;
  daraja: DarajaClient;
  /** Reversals, transaction status and C2B registration; none: refunds and till payments are off. */
  money?: DarajaMoneyClient;
  /**
   * Register the C2B URLs with Daraja once listening, when MPESA_C2B_REGISTER=start (server.ts
   * does; c2b/c2b-registration.ts).
   */
  registerC2b?: boolean;
  /** Run the reconciliation loop in this process (server.ts does; most tests call it directly). */
  reconcile?: boolean;
  now?: () => Date;
  /** DNS for webhook URLs (node:dns unless a test gives its own: webhooks/url-guard.ts). */
  resolve?: Resolve;
}

/** Where Daraja reaches this app's callbacks. */
export const callbackUrlsOf = (deps: AppDeps) =>
  callbackUrls(deps.config.mpesa.callbackBaseUrl, deps.callbackSecret);

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
    callbackUrlFor: callbackUrls(config.mpesa.callbackBaseUrl, deps.callbackSecret),
    settings: config.refunds,
    partyB: config.mpesa.partyB,
    leaseMs: config.reconcile.leaseMs,
  };
}

/** One handler per kind of callback (callbacks/callback-kinds.ts). */
export function callbackHandlers(
  deps: AppDeps,
  paymentDeps: PaymentDeps,
  refundDeps: RefundDeps,
): Record<CallbackKind, CallbackHandler> {
  const { database } = deps;
  const c2bDeps = c2bDepsOf(deps, paymentDeps);
  return {
    'stk-push': stkPushCallback(paymentDeps),
    'queue-timeout': keptOnlyCallback(
      database.db,
      'queue-timeout',
      paymentDeps.now,
      'M-PESA’s word that a Result API request timed out in its queue',
    ),
    reversal: reversalCallback(refundDeps),
    'refund-status': refundStatusCallback(refundDeps),
    'receipt-status': receiptStatusCallback(c2bDeps),
    'c2b-validation': c2bValidationCallback(c2bDeps),
    'c2b-confirmation': c2bConfirmationCallback(c2bDeps),
  };
}

/** What the C2B callbacks and the receipt checks work with. */
export const c2bDepsOf = (deps: AppDeps, paymentDeps: PaymentDeps) => ({
  db: deps.database.db,
  now: paymentDeps.now,
  settings: deps.config.c2b,
});
