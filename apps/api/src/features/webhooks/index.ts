/**
 * Webhooks: the shop's endpoints, the outbox every change writes its event to, and the deliverer.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { DbHandle } from '../../db/create-db.ts';
import { authDepsFor, type HistoryGuards } from '../operators/index.ts';
import type { ApiFeature } from '../feature.ts';
import { startDeliverer } from './deliverer.ts';
import { systemResolve, type Resolve } from './url-guard.ts';

export { endpointEvents, enqueueWebhookEvent } from './outbox.ts';
export type { Resolve } from './url-guard.ts';
export { listEnabledEndpoints } from './webhooks.repository.ts';

interface WebhooksContext {
  config: Config;
  database: DbHandle;
  now: () => Date;
  log: FastifyBaseLogger;
  /** DNS for webhook URLs (node:dns unless a test gives its own: url-guard.ts). */
  resolve: Resolve | undefined;
}

/** Telling the shop's own systems: its endpoints (where there are owners) and the outbox's deliverer. */
export const webhooks: ApiFeature<
  WebhooksContext,
  WebhooksContext & { guards: HistoryGuards | undefined }
> = {
  routes: async (api, { config, database, now, resolve, guards }) => {
    const { webhookRoutes } = await import('./webhooks.routes.ts');
    if (!guards) return;
    await api.register(webhookRoutes, {
      auth: authDepsFor({ config, db: database.db, now }),
      service: { db: database.db, now, policy: config.webhooks, resolve: resolve ?? systemResolve },
      corsOrigins: config.corsOrigins,
    });
  },
  // The outbox's events, sent by every instance that reconciles.
  loops: ({ config, database, now, log, resolve }) => [
    startDeliverer({
      db: database.db,
      now,
      log,
      settings: config.webhooks,
      ...(resolve ? { resolve } : {}),
    }),
  ],
};
