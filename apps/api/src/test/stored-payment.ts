import type { NewTransactionRow, TransactionRow } from '../db/schema.ts';

/**
 * A payment as the API stores it, made at `at`, for tests that write the history straight into
 * the API's database (making dozens through the simulator would take minutes). Override any field.
 */
export function storedPayment(
  id: string,
  at: string,
  fields: Partial<NewTransactionRow> & { status?: TransactionRow['status'] } = {},
): NewTransactionRow {
  return {
    id,
    reference: id,
    description: 'Payment for services',
    phone_number: '254712000999',
    amount: 100,
    status: 'success',
    merchant_request_id: null,
    checkout_request_id: null,
    result_code: null,
    response_description: null,
    customer_message: null,
    mpesa_receipt_number: null,
    transaction_date: null,
    created_at: at,
    updated_at: at,
    next_check_at: null,
    lease_owner: null,
    lease_until: null,
    flagged_reason: null,
    ...fields,
  };
}
