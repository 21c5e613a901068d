/**
 * The Daraja APIs whose results come back as callbacks: each has its own route (callback-paths.ts)
 * and its rows in the `callbacks` table say which it was (`callbacks.kind`). A string enum, stored
 * as it is written here (at most 16 characters, the column's length).
 *
 * - `stk-push`: an STK push's result (docs/daraja-protocol.md §4).
 * - `reversal`: a refund's reversal Result (§M7).
 * - `refund-status`, `receipt-status`: transaction status Results (§M5), asked about a refund whose
 *   Result did not come, or about a receipt the merchant typed.
 * - `queue-timeout`: any Result API's QueueTimeOutURL (§M1.4): kept, and the recovery asks again.
 * - `c2b-validation`, `c2b-confirmation`: a till or paybill payment M-PESA asks about, then tells
 *   of (§M3.3).
 */
export const CALLBACK_KINDS = [
  'stk-push',
  'reversal',
  'refund-status',
  'receipt-status',
  'queue-timeout',
  'c2b-validation',
  'c2b-confirmation',
] as const;

export type CallbackKind = (typeof CALLBACK_KINDS)[number];
