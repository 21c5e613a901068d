/**
 * The sample payment the API description's success examples show, put through the same functions
 * that make the real answers (the record as sent, the CSV line, the timeline's sentences), so that
 * an example cannot show a field or a format the API does not send.
 */
import type { Summary } from '@mpesa/shared/contract';
import type { TransactionRow } from '../db/schema.ts';
import { toTransactionDto } from '../features/payments/transaction-dto.ts';
import { csvHeader, csvRecord } from '../features/history/history-csv.ts';
import type { TimelineRow } from '../features/history/events.repository.ts';

const createdAt = '2026-03-14T09:26:53.000Z';
const paidAt = '2026-03-14T09:27:04.000Z';

/**
 * A payment paid through M-PESA (the identifiers in Daraja's formats, docs/daraja-protocol.md
 * §3.4).
 */
const PAID: TransactionRow = {
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
  transaction_date: paidAt,
  created_at: createdAt,
  updated_at: paidAt,
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
};

export const SAMPLE = {
  transactionId: PAID.id,
  checkoutRequestId: PAID.checkout_request_id as string,
  createdAt,
  paid: toTransactionDto(PAID),
  pending: toTransactionDto({
    ...PAID,
    status: 'pending',
    result_code: null,
    response_description: 'Success. Request accepted for processing',
    mpesa_receipt_number: null,
    transaction_date: null,
    updated_at: createdAt,
  }),
};

/** The export's first lines (its byte-order mark too), for the sample payment, in Nairobi's time. */
export const SAMPLE_CSV =
  csvHeader('Africa/Nairobi', new Date(createdAt)) + csvRecord(PAID, 'Africa/Nairobi');

/** Daraja's callback for the sample payment (docs/daraja-protocol.md §4.1). */
export const SAMPLE_CALLBACK = {
  Body: {
    stkCallback: {
      MerchantRequestID: PAID.merchant_request_id,
      CheckoutRequestID: PAID.checkout_request_id,
      ResultCode: 0,
      ResultDesc: 'The service request is processed successfully.',
      CallbackMetadata: {
        Item: [
          { Name: 'Amount', Value: 450 },
          { Name: 'MpesaReceiptNumber', Value: PAID.mpesa_receipt_number },
          { Name: 'Balance' },
          { Name: 'TransactionDate', Value: 20260314122704 },
          { Name: 'PhoneNumber', Value: 254712345678 },
        ],
      },
    },
  },
};

/** The figures on the sample payment's day: it alone, paid, in the last 14 business days. */
export const SAMPLE_SUMMARY: Summary = {
  timeZone: 'Africa/Nairobi',
  today: {
    collected: 450,
    refundedCount: 0,
    refunded: 0,
    count: 1,
    successCount: 1,
    successRate: 1,
  },
  last7Days: {
    collected: 450,
    refundedCount: 0,
    refunded: 0,
    count: 1,
    successCount: 1,
    successRate: 1,
  },
  daily: Array.from({ length: 14 }, (_, index) => ({
    day: `2026-03-${String(index + 1).padStart(2, '0')}`,
    byStatus: index === 13 ? [{ status: 'success' as const, count: 1, amount: 450 }] : [],
  })),
};

/** The sample payment's recorded events, for events.routes.ts to tell. */
export const SAMPLE_TIMELINE: TimelineRow[] = [
  {
    at: createdAt,
    source: 'initiation',
    from_status: null,
    to_status: 'pending',
    kind: 'saved',
    reason: null,
    note: 'saved before the STK push',
    payload: null,
  },
  {
    at: '2026-03-14T09:26:54.000Z',
    source: 'initiation',
    from_status: 'pending',
    to_status: 'pending',
    kind: 'accepted',
    reason: null,
    note: 'accepted by M-PESA',
    payload: null,
  },
  {
    at: paidAt,
    source: 'callback',
    from_status: 'pending',
    to_status: 'success',
    kind: 'applied',
    reason: null,
    note: null,
    payload: JSON.stringify(SAMPLE_CALLBACK),
  },
];
