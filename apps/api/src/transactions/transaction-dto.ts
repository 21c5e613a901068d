import type { Transaction } from '@mpesa/shared/contract';
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
  };
}
