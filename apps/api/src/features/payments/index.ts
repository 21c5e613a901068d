export { decide } from './decide-outcome.ts';
export { purgeExpiredKeys } from './idempotency.ts';
export { statusEvent, tellOfPayment } from './payment-events.ts';
export {
  SAMPLE,
  SAMPLE_CALLBACK,
  SAMPLE_CREATED_AT,
  SAMPLE_PAID_AT,
  SAMPLE_ROW,
} from './payments.examples.ts';
export { CALLBACK_BODY } from './payments.openapi.ts';
export { toRefundDto } from './refund-dto.ts';
export { refundBlock } from './refund-rules.ts';
export type { RefundPolicy } from './refund-rules.ts';
export { stkPushCallback } from './stk-push.callback.ts';
export { payersView, toTransactionDto } from './transaction-dto.ts';
export { applyOutcome, recordEvent } from './transaction-outcome.ts';
export {
  findRefundOf,
  findTransactionById,
  listForReview,
  settleReview,
  updateTransactionFrom,
} from './transactions.repository.ts';
export { transactionRoutes } from './transactions.routes.ts';
export { findTransaction, getMerchantView, getTransaction } from './transactions.service.ts';
export type { PaymentDeps } from './transactions.service.ts';
export { REVIEW_STATUSES, type ReviewStatus } from './decision.ts';
