/**
 * What one feature gives the app, as the simulator's operations do (its `operations/operation.ts`):
 * its routes, the kinds of Daraja callback it handles (each with its route and handler), and its
 * background rounds. Each feature's `index.ts` exports one such object, naming the part of the
 * app's context it needs; `features/index.ts` lists them and app.ts registers each, in the list's
 * order.
 */
import type { FastifyInstance } from 'fastify';
import type { CallbackHandler } from '../callbacks/callback.routes.ts';
import type { CallbackRoute } from '../callbacks/callback-paths.ts';

/** Anything started that the app stops when it closes. */
export interface Stoppable {
  stop(): void | Promise<void>;
}

/** One kind of Daraja callback a feature handles: where Daraja posts it, and what is made of it. */
export interface FeatureCallback<Context> {
  /** `resultRoute(suffix)` or `c2bRoute(suffix)`: never changed once Daraja has been given it. */
  route: CallbackRoute;
  handler: (context: Context) => CallbackHandler;
}

/**
 * `Kind`: the kinds of callback it handles, each stored as `callbacks.kind` (at most 16
 * characters) and unique across the features.
 */
export interface ApiFeature<Context, RoutesContext = Context, Kind extends string = never> {
  /**
   * Its routes, registered under `/api` once the operators' sign-in is in place. Each feature loads
   * its routes' modules here (`await import`), so that a command line using its services (`npm run
   * review`, `npm run c2b:register`) starts without the HTTP layer.
   */
  routes?: (api: FastifyInstance, context: RoutesContext) => Promise<void>;
  /** The kinds of Daraja callback it handles: callbacks/ posts each kind's to its handler. */
  callbacks?: Record<Kind, FeatureCallback<Context>>;
  /** Its background rounds, run by every instance that reconciles (`AppDeps.reconcile`). */
  loops?: (context: Context) => Stoppable[];
  /** What it starts once the app listens (`AppDeps.registerC2b`). */
  onListen?: (context: Context) => Stoppable | undefined;
}
