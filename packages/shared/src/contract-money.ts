/**
 * The HTTP contract of money going back and coming in by the phone's menu (docs/product.md §10,
 * §11): a payment's refund, the owner's request for one, and the receipt checks that find a till or
 * paybill payment whose confirmation never came. `contract.ts` re-exports it.
 */
import { z } from 'zod';
import { REFUND_REASON_MAX_LENGTH, REFUND_STATUSES } from './constants.ts';
import { stripControlCharacters } from './text.ts';

/**
 * Why a payment cannot be refunded: not paid (not a success), flagged for review, older than
 * REFUND_MAX_AGE_DAYS, refunds not set up (no initiator), or a refund asked for already.
 */
export const REFUND_BLOCKS = ['not_paid', 'flagged', 'too_old', 'not_set_up', 'exists'] as const;
export type RefundBlock = (typeof REFUND_BLOCKS)[number];

/** A payment's refund (docs/product.md §10). */
export const refundSchema = z.object({
  id: z.string(),
  status: z.enum(REFUND_STATUSES),
  amount: z.number(),
  reason: z.string(),
  /** The owner who asked for it, by name. */
  requestedBy: z.string(),
  requestedAt: z.string(),
  updatedAt: z.string(),
  /** M-PESA's code for a failure (R000001, 2001, …), which the web app words; null otherwise. */
  resultCode: z.string().nullable(),
  /** M-PESA's own words for the outcome, as they came. */
  resultDescription: z.string().nullable(),
  /** The reversal's own M-PESA receipt, once reversed. */
  reversalReceipt: z.string().nullable(),
});
export type Refund = z.infer<typeof refundSchema>;

/**
 * `POST /api/mpesa/transactions/:id/refund`: why, and the amount the owner confirmed (it must be
 * the payment's: a refund gives back the whole payment).
 */
export const refundRequestSchema = z.object(
  {
    reason: z
      .string({ error: 'Please give the reason for the refund' })
      .transform((value) => stripControlCharacters(value.normalize('NFC')).trim())
      .pipe(
        z
          .string()
          .min(2, 'Please give the reason for the refund (at least 2 characters)')
          .max(
            REFUND_REASON_MAX_LENGTH,
            `The reason must be at most ${REFUND_REASON_MAX_LENGTH} characters`,
          ),
      ),
    amount: z
      .number({ error: 'amount must be the payment’s amount, as a number' })
      .int('amount must be the payment’s amount, as a number'),
  },
  { error: 'The request body must be a JSON object' },
);
export type RefundRequest = z.infer<typeof refundRequestSchema>;

export const refundResponseSchema = z.object({ success: z.literal(true), data: refundSchema });

/**
 * `POST /api/mpesa/receipt-checks`: the M-PESA receipt from a payer's SMS, for a till or paybill
 * payment whose confirmation never came; M-PESA is asked (transaction status) and, once it answers,
 * the payment is in the history. `GET /api/mpesa/receipt-checks/:id` tells how the check went.
 */
export const receiptCheckRequestSchema = z.object(
  {
    receipt: z
      .string({ error: 'Please enter the M-PESA receipt from the SMS, such as UAB1C2D3E4' })
      .trim()
      .toUpperCase()
      .regex(
        /^[A-Z0-9]{10}$/,
        'Please enter the M-PESA receipt from the SMS, such as UAB1C2D3E4 (10 letters and digits)',
      ),
  },
  { error: 'The request body must be a JSON object' },
);
export const RECEIPT_CHECK_STATUSES = ['asked', 'found', 'not_found', 'failed'] as const;
export const receiptCheckSchema = z.object({
  id: z.string(),
  receipt: z.string(),
  /**
   * `asked`: M-PESA's answer is awaited; `found`: the payment is in the history
   * (`transactionId`); `not_found`: M-PESA knows no such payment to this shop; `failed`: M-PESA
   * could not be asked or refused (`resultCode`).
   */
  status: z.enum(RECEIPT_CHECK_STATUSES),
  transactionId: z.string().nullable(),
  resultCode: z.string().nullable(),
  requestedAt: z.string(),
});
export type ReceiptCheck = z.infer<typeof receiptCheckSchema>;
export const receiptCheckResponseSchema = z.object({
  success: z.literal(true),
  data: receiptCheckSchema,
});
