export { startDeliverer } from './deliverer.ts';
export { endpointEvents, enqueueWebhookEvent } from './outbox.ts';
export { systemResolve } from './url-guard.ts';
export type { Resolve } from './url-guard.ts';
export { listEnabledEndpoints } from './webhooks.repository.ts';
export { webhookRoutes } from './webhooks.routes.ts';
