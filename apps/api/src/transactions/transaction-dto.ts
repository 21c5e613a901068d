import { recognisablePhone } from '@mpesa/shared';
import type { Transaction, TransactionView } from '@mpesa/shared/contract';
import type { RefundView } from '../refunds/refund-rules.ts';
import type { TransactionRow } from '../db/schema.ts';

/** The record as the web app reads it (docs/product.md §3), plus the Daraja identifiers. */
export function toTransactionDto(row: TransactionRow): Transaction {
  return {
    _id: row.id,
    reference: row.reference,
    phoneNumber: row.phone_number,
    amount: Number(row.amount),
    description: row.description,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    merchantRequestId: row.merchant_request_id,
    checkoutRequestId: row.checkout_request_id,
    resultCode: row.result_code,
    mpesaReceiptNumber: row.mpesa_receipt_number,
    transactionDate: row.transaction_date,
    responseDescription: row.response_description,
    channel: row.channel,
    payerName: row.payer_name,
  };
}

/**
 * A payment as its payer's own page shows it when the history is for operators only
 * (HISTORY_ACCESS=operators). Anyone holding the page's link reaches it, so the payer's number is
 * shown only as far as its owner needs to recognise it (`0712 ••• 678`), and nothing else may hold
 * more of its digits: the CheckoutRequestID, which Daraja ends with the number, is left out (even
 * masked it kept four digits, and with the recognisable form gave away eight of ten). The payer's
 * page has no use for it.
 */
export function payersView(transaction: Transaction): TransactionView {
  return {
    ...transaction,
    view: 'payer',
    phoneNumber: recognisablePhone(transaction.phoneNumber),
    payerName: null,
    checkoutRequestId: null,
  };
}

/**
 * A payment as the merchant's view shows it (HISTORY_ACCESS=operators, to an operator or a key
 * that reads payments): all of it, with the flag and M-PESA's own messages as they came.
 */
export function merchantView(
  row: TransactionRow,
  callbacks: readonly { received_at: string; outcome: string; raw_body: string }[],
  /** `reviews`: whether the web app reviews here (HISTORY_ACCESS=operators; `npm run review` else). */
  reader: { owner: boolean; reviews?: boolean },
  /** What it says of the payment's refund (refunds/refund-rules.ts decides it). */
  refund: RefundView,
): TransactionView {
  return {
    ...toTransactionDto(row),
    view: 'merchant',
    merchant: {
      ...refund,
      flaggedReason: row.flagged_reason,
      customerMessage: row.customer_message,
      // What a review can settle: a flag, or an outcome M-PESA never gave (review.ts).
      mayReview:
        reader.owner &&
        reader.reviews !== false &&
        (row.flagged_reason !== null || row.status === 'unknown'),
      callbacks: callbacks.map((callback) => ({
        receivedAt: callback.received_at,
        outcome: callback.outcome,
        rawBody: callback.raw_body,
      })),
    },
  };
}
