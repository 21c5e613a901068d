/**
 * Payments: asking for one (the prompt, its answer, idempotency) and learning its outcome (a
 * report applied through decide-outcome.ts), with the payment's views, events and refund view.
 * What other features use of it, and the feature itself (features/feature.ts).
 */
import type { Config } from '../../config.ts';
import { resultRoute } from '../../callbacks/callback-paths.ts';
import type { HistoryGuards } from '../operators/index.ts';
import type { ApiFeature } from '../feature.ts';
import type { PaymentDeps } from './transactions.service.ts';
import { stkPushCallback } from './stk-push.callback.ts';

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
export { CALLBACK_BODY, PAYMENT_ACCEPTED } from './payments.openapi.ts';
export { toRefundDto } from './refund-dto.ts';
export { refundBlock } from './refund-rules.ts';
export type { RefundPolicy } from './refund-rules.ts';
export { payersView, toTransactionDto } from './transaction-dto.ts';
export { applyOutcome, recordEvent } from './transaction-outcome.ts';
export {
  findRefundOf,
  findTransactionById,
  listForReview,
  settleReview,
  updateTransactionFrom,
} from './transactions.repository.ts';
export {
  findTransaction,
  getMerchantView,
  getTransaction,
  initiatePayment,
} from './transactions.service.ts';
export type { PaymentDeps, RequestLimit, ThroughLink } from './transactions.service.ts';
export { promptOnce } from './prompt-once.ts';
export { paymentWritesFor } from './payment-writes-for.ts';
export { REVIEW_STATUSES, type ReviewStatus } from './decision.ts';

interface PaymentsContext {
  config: Config;
  payments: PaymentDeps;
}

/** Asking for a payment (`POST /api/mpesa/stkpush`) and learning its outcome by STK callback. */
export const payments: ApiFeature<
  PaymentsContext,
  PaymentsContext & { guards: HistoryGuards | undefined },
  'stk-push'
> = {
  routes: async (api, { config, payments: deps, guards }) => {
    const { transactionRoutes } = await import('./transactions.routes.ts');
    const { limits, databaseTimeouts } = config;
    await api.register(transactionRoutes, {
      deps,
      paymentGuard: guards?.payment,
      rateLimit: {
        max: limits.stkPushPerWindow,
        requestsMax: limits.stkPushRequestsPerWindow,
        windowS: limits.stkPushWindowS,
      },
      bodyLimits: { paymentBytes: limits.paymentBodyBytes },
      // Past every wait a request can make for the database before its payment is saved.
      idempotencyKeyAbandonedMs:
        databaseTimeouts.connectMs +
        databaseTimeouts.statementMs +
        databaseTimeouts.busyMs +
        30_000,
    });
  },
  callbacks: {
    // The URL Daraja has always been given: no suffix after the secret.
    'stk-push': { route: resultRoute(''), handler: ({ payments: deps }) => stkPushCallback(deps) },
  },
};
