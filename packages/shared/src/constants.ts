/** Business constants from the product's requirements (docs/product.md §9) and Daraja's limits (docs/daraja-protocol.md §6). */

export const CURRENCY = 'KES';

/** Smallest payment in whole shillings (docs/product.md §9; Daraja's ResultCode 2, docs/daraja-protocol.md §4.2). */
export const MIN_AMOUNT = 1;

/** Largest single M-PESA payment: KES 250,000 since the CBK approval of September 2023. */
export const MAX_AMOUNT = 250_000;

/** After a payment starts, the form waits this long before opening the transaction (docs/product.md §9). */
export const REDIRECT_DELAY_MS = 3000;

/** The detail screen asks again this often while a transaction is pending (docs/product.md §9). */
export const POLL_INTERVAL_MS = 5000;

export const DEFAULT_REFERENCE = 'Payment';
export const DEFAULT_DESCRIPTION = 'Payment for services';

/** Our own limits on free text; the record keeps the full text, Daraja gets a shortened copy. */
export const REFERENCE_MAX_LENGTH = 100;
/**
 * How much of the reference the payer's M-PESA prompt shows: Daraja's AccountReference takes 12
 * characters (docs/daraja-protocol.md §3.1); our record keeps the whole reference.
 */
export const PROMPT_REFERENCE_LENGTH = 12;
export const DESCRIPTION_MAX_LENGTH = 500;
/** The history's search words, at most (GET /api/mpesa/transactions?q=). */
export const SEARCH_MAX_LENGTH = 100;

/**
 * `timeout` is M-PESA's own word that the prompt went unanswered or expired (no money moved);
 * `unknown` is ours: M-PESA never told us the outcome, so the money may or may not have moved;
 * `refunded`: a success whose money M-PESA has given back (a reversal, docs/product.md §10).
 */
export const TRANSACTION_STATUSES = [
  'pending',
  'success',
  'failed',
  'cancelled',
  'timeout',
  'unknown',
  'refunded',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/**
 * How a payment came: `prompt`, the STK push the shop sent; `till` and `paybill`, paid by the
 * customer from the phone's own menu (Lipa na M-PESA: Buy Goods, Pay Bill), told by Daraja's C2B
 * confirmation (docs/daraja-protocol.md §M3).
 */
export const PAYMENT_CHANNELS = ['prompt', 'till', 'paybill'] as const;
export type PaymentChannel = (typeof PAYMENT_CHANNELS)[number];

/**
 * A refund's life (docs/product.md §10): `requested` once sent to Daraja's Reversal API (or while
 * its answer is awaited), then `reversed` (the money went back) or `failed` (it did not; the owner
 * may ask again).
 */
export const REFUND_STATUSES = ['requested', 'reversed', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** The reason an owner gives for a refund; Daraja's Remarks gets its first 100 characters. */
export const REFUND_REASON_MAX_LENGTH = 200;

/**
 * Required word for word (docs/product.md §2, §5, §8), each on its own so that the web app's first
 * screen downloads the two it shows and not every message the API may send.
 */
export const INVALID_PHONE_MESSAGE = 'Please enter a valid Kenyan phone number';
export const AMOUNT_TOO_SMALL_MESSAGE = `Amount must be at least ${MIN_AMOUNT} KES`;
export const TRANSACTION_NOT_FOUND_MESSAGE = 'Transaction not found';

/** Messages a payer reads. The first two are required word for word (docs/product.md §5, §8). */
export const messages = {
  invalidPhone: INVALID_PHONE_MESSAGE,
  amountTooSmall: AMOUNT_TOO_SMALL_MESSAGE,
  amountTooLarge: `Amount must not be more than ${MAX_AMOUNT.toLocaleString('en-US')} KES`,
  amountNotWhole: 'Amount must be a whole number of shillings',
  amountNotNumber: 'Amount must be a number',
  amountRequired: 'Please enter an amount',
  transactionNotFound: TRANSACTION_NOT_FOUND_MESSAGE,
} as const;
