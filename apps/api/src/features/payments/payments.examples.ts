/**
 * The sample payment the API description's success examples show, put through the same functions
 * that make the real answers (the record as sent; history.examples.ts adds the CSV line and the
 * timeline's sentences), so that an example cannot show a field or a format the API does not send.
 */
import type { TransactionRow } from '../../db/schema.ts';
import { toTransactionDto } from './transaction-dto.ts';

export const SAMPLE_CREATED_AT = '2026-03-14T09:26:53.000Z';
export const SAMPLE_PAID_AT = '2026-03-14T09:27:04.000Z';

/**
 * A payment paid through M-PESA (the identifiers in Daraja's formats, docs/daraja-protocol.md
 * §3.4).
 */
export const SAMPLE_ROW: TransactionRow = {
  id: '0f8b2c6e-3d41-4a57-9e0b-5c2f71a8d903',
  reference: 'INV-1042',
  description: 'Order 1042',
  phone_number: '254712345678',
  amount: 450,
  status: 'success',
  merchant_request_id: '2654-4b64-97ff-b827b542881d3130',
  checkout_request_id: 'ws_CO_14032026122653412712345678',
  result_code: '0',
  response_description: 'The service request is processed successfully.',
  customer_message: 'Success. Request accepted for processing',
  mpesa_receipt_number: 'UCE7RT61SV',
  transaction_date: SAMPLE_PAID_AT,
  created_at: SAMPLE_CREATED_AT,
  updated_at: SAMPLE_PAID_AT,
  next_check_at: null,
  check_attempts: 0,
  lease_until: null,
  lease_owner: null,
  flagged_reason: null,
  phone_masked_at: null,
  channel: 'prompt',
  payer_name: null,
  payer_msisdn: null,
  shortcode: null,
  link_id: null,
};

export const SAMPLE = {
  transactionId: SAMPLE_ROW.id,
  checkoutRequestId: SAMPLE_ROW.checkout_request_id as string,
  createdAt: SAMPLE_CREATED_AT,
  paid: toTransactionDto(SAMPLE_ROW),
  pending: toTransactionDto({
    ...SAMPLE_ROW,
    status: 'pending',
    result_code: null,
    response_description: 'Success. Request accepted for processing',
    mpesa_receipt_number: null,
    transaction_date: null,
    updated_at: SAMPLE_CREATED_AT,
  }),
};

/** Daraja's callback for the sample payment (docs/daraja-protocol.md §4.1). */
export const SAMPLE_CALLBACK = {
  Body: {
    stkCallback: {
      MerchantRequestID: SAMPLE_ROW.merchant_request_id,
      CheckoutRequestID: SAMPLE_ROW.checkout_request_id,
      ResultCode: 0,
      ResultDesc: 'The service request is processed successfully.',
      CallbackMetadata: {
        Item: [
          { Name: 'Amount', Value: 450 },
          { Name: 'MpesaReceiptNumber', Value: SAMPLE_ROW.mpesa_receipt_number },
          { Name: 'Balance' },
          { Name: 'TransactionDate', Value: 20260314122704 },
          { Name: 'PhoneNumber', Value: 254712345678 },
        ],
      },
    },
  },
};
