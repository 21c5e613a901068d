export { startRefundRecovery } from './refund-recovery.ts';
export { refundStatusCallback } from './refund-status.callback.ts';
export { refundRoutes } from './refunds.routes.ts';
export { refundPolicy } from './refunds.service.ts';
export type { RefundDeps } from './refunds.service.ts';
export { reversalCallback } from './reversal.callback.ts';
