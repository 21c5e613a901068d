/**
 * The refusals of a refund (POST /api/mpesa/transactions/:id/refund, docs/product.md §10): one
 * factory per reason a payment cannot be refunded (features/payments/refund-rules.ts decides which), each
 * with a sentence the owner reads as it is.
 */
import type { RefundBlock } from '@mpesa/shared/contract';
import { AppError } from '../../errors.ts';

/**
 * The payment is not (or not yet) a success, or M-PESA has not given its receipt, by which a
 * reversal names it: there is nothing to give back yet.
 */
export const refundNotPaid = () =>
  new AppError(
    409,
    'REFUND_NOT_PAID',
    'Only a payment M-PESA reported paid, with its receipt, can be refunded: this one is not, or not yet.',
  );

/** Flagged for review: what M-PESA reported about it is in doubt until a person has looked. */
export const refundFlagged = () =>
  new AppError(
    409,
    'REFUND_FLAGGED',
    'This payment is flagged for review: review it first, then refund it if it was paid.',
  );

/** Older than REFUND_MAX_AGE_DAYS. */
export const refundTooOld = (maxAgeDays: number) =>
  new AppError(
    409,
    'REFUND_TOO_OLD',
    `This payment is more than ${maxAgeDays} days old: M-PESA may no longer reverse it. Refund the payer another way.`,
  );

/** No initiator is set up (MPESA_INITIATOR_NAME): M-PESA cannot be asked for a reversal. */
export const refundsNotSetUp = () =>
  new AppError(
    409,
    'REFUNDS_NOT_SET_UP',
    'Refunds are not set up on this server: it needs the M-PESA initiator’s name and credential (MPESA_INITIATOR_NAME).',
  );

/** A refund of this payment was asked for already (and has not failed): one per payment. */
export const refundExists = () =>
  new AppError(
    409,
    'REFUND_EXISTS',
    'A refund of this payment has already been asked for: its progress is shown on the payment.',
  );

/** The amount confirmed is not the payment's: a refund gives back the whole payment. */
export const refundAmountMismatch = (amount: number) =>
  new AppError(
    400,
    'REFUND_AMOUNT_MISMATCH',
    `A refund gives back the whole payment: confirm its amount, ${amount} KES.`,
    { field: 'amount' },
  );

/** The refusal for each reason a payment cannot be refunded. */
export function refundRefused(block: RefundBlock, maxAgeDays: number): AppError {
  switch (block) {
    case 'not_paid':
      return refundNotPaid();
    case 'flagged':
      return refundFlagged();
    case 'too_old':
      return refundTooOld(maxAgeDays);
    case 'not_set_up':
      return refundsNotSetUp();
    case 'exists':
      return refundExists();
  }
}
