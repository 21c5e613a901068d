export { payerCheckRoutes } from './payer-check.routes.ts';
export { startReconciler } from './reconciler.ts';
