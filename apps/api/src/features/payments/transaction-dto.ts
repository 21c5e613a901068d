/** A payment as the API sends it: the record, the payer's view (the number in part) and the merchant's. */
import { recognisablePhone } from '@mpesa/shared';
import type { Transaction, TransactionView } from '@mpesa/shared/contract';
import type { RefundView } from './refund-rules.ts';
import type { TransactionRow } from '../../db/schema.ts';

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
    linkId: row.link_id,
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
  const shown = recognisablePhone(transaction.phoneNumber);
  const hide = hidingNumber(transaction.phoneNumber, shown);
  return {
    ...transaction,
    view: 'payer',
    phoneNumber: shown,
    payerName: null,
    checkoutRequestId: null,
    // Typed by the payer or the shop, they may hold the number itself (a reference "0712345678").
    reference: hide(transaction.reference),
    description: hide(transaction.description),
    responseDescription:
      transaction.responseDescription === null ? null : hide(transaction.responseDescription),
  };
}

/**
 * Replaces the payer's number wherever it is written in a text (07…, 2547…, +254 7…, with spaces,
 * dots or dashes between its digits) with `shown`, its recognisable form.
 */
function hidingNumber(phone: string, shown: string): (text: string) => string {
  const subscriber = /^(?:254|0)?([17][0-9]{8})$/.exec(phone)?.[1];
  if (!subscriber) return (text) => text;
  const between = '[\\s.-]*';
  const written = new RegExp(
    `(?<![0-9])(?:\\+?254|0)?${between}${[...subscriber].join(between)}(?![0-9])`,
    'g',
  );
  return (text) => text.replace(written, shown);
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
  /** What it says of the payment's refund (features/payments/refund-rules.ts decides it). */
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
