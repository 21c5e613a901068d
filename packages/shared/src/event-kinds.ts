/**
 * What each row of a payment's history (`transaction_events`) records. Code decides by the kind;
 * the event's note is only the text a person reads, and is never parsed.
 */
import { z } from 'zod';

// Pure: the web app imports this package for its constants, and must not download zod for this.
export const EventKind = /* @__PURE__ */ z.enum([
  /** The payment was saved, before the STK push was sent. */
  'saved',
  /** Daraja acknowledged the push (MerchantRequestID, CheckoutRequestID). */
  'accepted',
  /** The push ended without Daraja's answer: a prompt may have reached the phone. */
  'push_unknown',
  /** Daraja refused the push, or could not be reached: no prompt was sent. */
  'push_failed',
  /** Flagged for a person's review (the status kept, or an open payment held as failed). */
  'flagged',
  /** A callback or an STK query answer gave a pending payment its outcome. */
  'applied',
  /** A callback or an STK query answer settled a payment whose outcome was unknown. */
  'settled_unknown',
  /** A success callback replaced an unpaid final status. */
  'lifted',
  /** The same, contradicting an earlier callback: the payment is flagged. */
  'lifted_flagged',
  /** The same, on a payment flagged for review: it stays flagged. */
  'lifted_under_review',
  /** A late callback brought the receipt of a payment already known to be paid. */
  'receipt_added',
  /** A report about a payment flagged for review, recorded and not applied. */
  'not_applied_under_review',
  /** A report already received (the same callback again, or the same result). */
  'duplicate',
  /** A report that cannot change the payment's final status. */
  'ignored',
  /** Reconciliation gave up asking: the outcome is unknown. */
  'gave_up',
  /** A person cleared a flag (npm run review). */
  'flag_cleared',
  /** A person settled an unknown outcome from the M-PESA statement. */
  'unknown_settled',
  /** A till or paybill payment recorded from M-PESA's C2B confirmation. */
  'c2b_confirmed',
  /** A till or paybill payment recorded from a transaction status query for its receipt. */
  'c2b_found',
  /** An owner asked for a refund: the reversal was sent to M-PESA (or its answer is awaited). */
  'refund_requested',
  /** M-PESA reversed the payment: its money went back to the payer. */
  'refunded',
  /** The reversal failed: the money stayed with the shop (the refund may be asked for again). */
  'refund_failed',
  /** Recorded by an earlier version in words none of the kinds above match; told by its note. */
  'other',
]);
export type EventKind = z.infer<typeof EventKind>;
