/**
 * Whether a payment may be refunded, and what the merchant's view says of its refund
 * (docs/product.md §10). Pure: the service reads the payment and its refund, and asks here.
 */
import type { MerchantDetails, RefundBlock } from '@mpesa/shared/contract';
import type { RefundRow, TransactionRow } from '../../db/schema.ts';
import { toRefundDto } from './refund-dto.ts';

/** What the rules need to know of the server's settings. */
export interface RefundPolicy {
  /** A payment older than this many days is not refunded (REFUND_MAX_AGE_DAYS). */
  maxAgeDays: number;
  /** Whether an initiator is set up, so that M-PESA can be asked for a reversal. */
  canReverse: boolean;
}

export type RefundablePayment = Pick<
  TransactionRow,
  'status' | 'flagged_reason' | 'transaction_date' | 'created_at' | 'mpesa_receipt_number'
>;

const DAY_MS = 24 * 3600_000;

/** When the money moved: M-PESA's TransactionDate when it gave one, else when the payment was saved. */
function paidAt(payment: RefundablePayment): number {
  const reported = payment.transaction_date === null ? NaN : Date.parse(payment.transaction_date);
  return Number.isNaN(reported) ? Date.parse(payment.created_at) : reported;
}

/**
 * Why `payment` cannot be refunded now, or null when it can. A refund asked for already comes
 * first (a refunded payment is no longer a success, and "refunded already" is what the owner needs
 * to hear); a failed one may be asked for again. Then what the payment is, and last what the
 * server can do.
 */
export function refundBlock(
  payment: RefundablePayment,
  refund: Pick<RefundRow, 'status'> | undefined,
  policy: RefundPolicy,
  now: Date,
): RefundBlock | null {
  if (refund && refund.status !== 'failed') return 'exists';
  if (payment.status === 'refunded') return 'exists';
  // A reversal names the payment by its receipt: a success learnt from an STK query has none until
  // a late callback brings it (features/payments/decide-outcome.ts).
  if (payment.status !== 'success' || !payment.mpesa_receipt_number) return 'not_paid';
  if (payment.flagged_reason) return 'flagged';
  if (now.getTime() - paidAt(payment) > policy.maxAgeDays * DAY_MS) return 'too_old';
  if (!policy.canReverse) return 'not_set_up';
  return null;
}

/** The merchant's view's part about refunds. */
export type RefundView = Pick<MerchantDetails, 'refund' | 'mayRefund' | 'refundBlockedBy'>;

/**
 * What the merchant's view says: the refund if there is one, whether the reader may refund now
 * (an owner only), and why not, for an owner only, and only while there is something to explain
 * (nothing once the money went back).
 */
export function refundView(
  payment: RefundablePayment,
  refund: RefundRow | undefined,
  policy: RefundPolicy,
  reader: { owner: boolean },
  now: Date,
): RefundView {
  const block = refundBlock(payment, refund, policy, now);
  const refunded = payment.status === 'refunded' || refund?.status === 'reversed';
  return {
    refund: refund ? toRefundDto(refund) : null,
    mayRefund: reader.owner && block === null,
    refundBlockedBy: reader.owner && !refunded ? block : null,
  };
}
