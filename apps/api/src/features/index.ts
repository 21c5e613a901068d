/**
 * The API's features, one folder each (feature.ts says what each gives). A new one is a new folder
 * and one line here, with its migration: the kinds of callback it handles are its own. The order is
 * the order of their routes (and so of the API description). The operators' sign-in comes before
 * them all (app.ts): every feature's routes are guarded by it.
 */
import type { FastifyBaseLogger, onRequestAsyncHookHandler } from 'fastify';
import type { Config } from '../config.ts';
import type { DbHandle } from '../db/create-db.ts';
import type { DarajaMoneyClient } from '../daraja/daraja-client.ts';
import {
  callbackRoute,
  type CallbackRoute,
  type CallbackUrlFor,
} from '../callbacks/callback-paths.ts';
import type { CallbackKindRoute } from '../callbacks/callback.routes.ts';
import { QUEUE_TIMEOUT_CALLBACK } from '../callbacks/kept-callback.ts';
import type { ApiFeature } from './feature.ts';
import { balance } from './balance/index.ts';
import { c2b } from './c2b/index.ts';
import { history } from './history/index.ts';
import { links } from './links/index.ts';
import type { HistoryGuards } from './operators/index.ts';
import { payments, type PaymentDeps } from './payments/index.ts';
import { payouts } from './payouts/index.ts';
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
  payouts,
  links,
  balance,
  privacy,
  system,
] as const satisfies readonly ApiFeature<FeatureContext, RoutesContext, string>[];

type Feature = ApiFeature<FeatureContext, RoutesContext, string>;

/** What callbacks/ handles itself, beside the features' kinds. */
const CALLBACKS_OWN: Feature = { callbacks: QUEUE_TIMEOUT_CALLBACK };

/** The kinds of callback the features handle, and callbacks/ own `queue-timeout`. */
export type CallbackKind =
  | ((typeof FEATURES)[number] extends infer F
      ? F extends { callbacks?: infer Kinds }
        ? keyof NonNullable<Kinds> & string
        : never
      : never)
  | keyof typeof QUEUE_TIMEOUT_CALLBACK;

/**
 * Every kind's route, from a list of features and what callbacks/ handles itself: a kind named
 * twice, a kind longer than its column (16 characters) or two kinds on one route stop the app at
 * start-up, instead of M-PESA's callbacks reaching the wrong handler.
 */
export function callbackRoutesOf(features: readonly Feature[]): Record<string, CallbackRoute> {
  const routes: Record<string, CallbackRoute> = {};
  const taken = new Map<string, string>();
  for (const feature of [...features, CALLBACKS_OWN]) {
    for (const [kind, { route }] of Object.entries(feature.callbacks ?? {})) {
      if (routes[kind]) throw new Error(`Two handlers for the ${kind} callback`);
      if (kind.length > 16) throw new Error(`The ${kind} callback’s kind is over 16 characters`);
      const path = callbackRoute(route);
      const other = taken.get(path);
      if (other) throw new Error(`The ${kind} and ${other} callbacks share the route ${path}`);
      routes[kind] = route;
      taken.set(path, kind);
    }
  }
  return routes;
}

/** Where each kind of callback is posted (`callbackUrls` and the routes take it from here). */
export const CALLBACK_ROUTES = callbackRoutesOf(FEATURES) as Readonly<
  Record<CallbackKind, CallbackRoute>
>;

/**
 * Each kind the features and callbacks/ handle, with its route and its handler made from the
 * app's context.
 */
export function featureCallbacks(context: FeatureContext): CallbackKindRoute[] {
  return [...(FEATURES as readonly Feature[]), CALLBACKS_OWN].flatMap((feature) =>
    Object.entries(feature.callbacks ?? {}).map(([kind, { route, handler }]) => ({
      kind,
      route,
      handler: handler(context),
    })),
  );
}
