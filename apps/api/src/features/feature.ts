/**
 * What one feature gives the app, as the simulator's operations do (its `operations/operation.ts`):
 * its routes, its handlers of Daraja's callbacks by kind, and its background rounds. Each feature's
 * `index.ts` exports one such object, naming the part of the app's context it needs;
 * `features/index.ts` lists them and app.ts registers each, in the list's order.
 */
import type { FastifyInstance } from 'fastify';
import type { CallbackHandler } from '../callbacks/callback.routes.ts';
import type { CallbackKind } from '../db/callback-kinds.ts';

/** Anything started that the app stops when it closes. */
export interface Stoppable {
  stop(): void | Promise<void>;
}

export interface ApiFeature<Context, RoutesContext = Context> {
  /**
   * Its routes, registered under `/api` once the operators' sign-in is in place. Each feature loads
   * its routes' modules here (`await import`), so that a command line using its services (`npm run
   * review`, `npm run c2b:register`) starts without the HTTP layer.
   */
  routes?: (api: FastifyInstance, context: RoutesContext) => Promise<void>;
  /** Its handlers of Daraja's callbacks, by kind: callbacks/ takes each kind's to its handler. */
  callbacks?: (context: Context) => Partial<Record<CallbackKind, CallbackHandler>>;
  /** Its background rounds, run by every instance that reconciles (`AppDeps.reconcile`). */
  loops?: (context: Context) => Stoppable[];
  /** What it starts once the app listens (`AppDeps.registerC2b`). */
  onListen?: (context: Context) => Stoppable | undefined;
}
