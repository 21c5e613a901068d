/**
 * The API's features, one folder each (feature.ts says what each gives). A new one is a new folder
 * and one line here, with its migration, and its kind in db/callback-kinds.ts if M-PESA calls it
 * back. The order is the order of their routes (and so of the API description). The operators'
 * sign-in comes before them all (app.ts): every feature's routes are guarded by it.
 */
import type { FastifyBaseLogger, onRequestAsyncHookHandler } from 'fastify';
import type { Config } from '../config.ts';
import type { DbHandle } from '../db/create-db.ts';
import { CALLBACK_KINDS, type CallbackKind } from '../db/callback-kinds.ts';
import type { DarajaMoneyClient } from '../daraja/daraja-client.ts';
import type { CallbackUrlFor } from '../callbacks/callback-paths.ts';
import type { CallbackHandler } from '../callbacks/callback.routes.ts';
import type { ApiFeature } from './feature.ts';
import { c2b } from './c2b/index.ts';
import { history } from './history/index.ts';
import type { HistoryGuards } from './operators/index.ts';
import { payments, type PaymentDeps } from './payments/index.ts';
import { privacy } from './privacy/index.ts';
import { reconciliation } from './reconciliation/index.ts';
import { refunds, type RefundDeps } from './refunds/index.ts';
import { review } from './review/index.ts';
import { system } from './system/index.ts';
import { webhooks, type Resolve } from './webhooks/index.ts';

/** What every feature may take from the app (app-deps.ts makes it). */
export interface FeatureContext {
  config: Config;
  database: DbHandle;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Reversals, transaction status and C2B registration; none: refunds and till payments are off. */
  money: DarajaMoneyClient | undefined;
  callbackUrlFor: CallbackUrlFor;
  payments: PaymentDeps;
  refunds: RefundDeps;
  resolve: Resolve | undefined;
  registerC2b: boolean;
}

/** And, for their routes, the operators' gates (none where HISTORY_ACCESS=open). */
export interface RoutesContext extends FeatureContext {
  guards: HistoryGuards | undefined;
  /** An owner signed in, whatever HISTORY_ACCESS says. */
  ownerGate: onRequestAsyncHookHandler[];
}

export const FEATURES = [
  payments,
  history,
  c2b,
  reconciliation,
  review,
  webhooks,
  refunds,
  privacy,
  system,
] as const satisfies readonly ApiFeature<FeatureContext, RoutesContext>[];

/**
 * Each kind of callback's handler, from the features and `more` (what callbacks/ handles itself);
 * a kind with no handler, or with two, stops the app at start-up.
 */
export function callbackHandlers(
  context: FeatureContext,
  more: Partial<Record<CallbackKind, CallbackHandler>>,
): Record<CallbackKind, CallbackHandler> {
  const handlers: Partial<Record<CallbackKind, CallbackHandler>> = { ...more };
  for (const feature of FEATURES as readonly ApiFeature<FeatureContext, RoutesContext>[]) {
    for (const [kind, handler] of Object.entries(feature.callbacks?.(context) ?? {})) {
      if (handlers[kind as CallbackKind]) throw new Error(`Two handlers for the ${kind} callback`);
      handlers[kind as CallbackKind] = handler;
    }
  }
  const missing = CALLBACK_KINDS.filter((kind) => !handlers[kind]);
  if (missing.length > 0) throw new Error(`No handler for the ${missing.join(', ')} callback`);
  return handlers as Record<CallbackKind, CallbackHandler>;
}
