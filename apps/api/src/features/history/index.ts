export { transactionEventRoutes } from './events.routes.ts';
export { historyRoutes } from './history.routes.ts';
