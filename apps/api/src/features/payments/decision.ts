/**
 * The words of one decision (decide-outcome.ts): the reports a payment can receive, the payment as
 * stored, and what to do.
 */
import type { EventKind, TransactionStatus } from '@mpesa/shared';
import { REVIEW_STATUS_VALUES } from '@mpesa/shared/contract-admin';
import type { StkCallbackMetadata } from '../../daraja/callback-parser.ts';
import type { EventSource, TransactionPatch, TransactionRow } from '../../db/schema.ts';

/** What a report about one payment says. */
export type Report =
  | {
      kind: 'callback';
      resultCode: string;
      resultDesc: string;
      /** Only success callbacks carry metadata. */
      metadata: StkCallbackMetadata | null;
      /** This very callback body was received for this payment before. */
      redelivered: boolean;
    }
  | { kind: 'query'; resultCode: string; resultDesc: string }
  /** Reconciliation asked until RECONCILE_GIVE_UP_S with no result; `why` says what went wrong. */
  | { kind: 'gave_up'; why: string }
  /** A person clears a flag, keeping the status or settling it as `status`. */
  | { kind: 'review'; note: string; status?: ReviewStatus };

/** What a reviewer may settle a flagged payment as (the contract's list, for the web app too). */
export const REVIEW_STATUSES = REVIEW_STATUS_VALUES;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** What became of a report from M-PESA (kept on the callback's row). */
export type OutcomeResult = 'applied' | 'duplicate' | 'ignored' | 'mismatch' | 'contradiction';

/** The event a decision records. */
export interface EventPlan {
  kind: EventKind;
  note: string | null;
  reason?: string;
}

/** The payment as stored, with where its current status came from (null while it is open). */
export type StoredPayment = Pick<
  TransactionRow,
  | 'id'
  | 'status'
  | 'amount'
  | 'phone_number'
  | 'result_code'
  | 'mpesa_receipt_number'
  | 'flagged_reason'
> & { statusSource: EventSource | null };

export type Decision =
  /** Move to `to` with `patch`, if the payment still has the status decided from. */
  | {
      kind: 'move';
      to: TransactionStatus;
      patch: TransactionPatch;
      event: EventPlan;
      result: Moved;
    }
  /** Keep the status; apply `patch` (if any) and record the event. */
  | { kind: 'keep'; patch: TransactionPatch | null; event: EventPlan; result: OutcomeResult }
  /** A person's review: clear the flag and set `to`, only if the payment is as the reviewer saw it. */
  | { kind: 'clear_flag'; to: TransactionStatus; event: EventPlan }
  /** A review that cannot be done, and why. */
  | { kind: 'refuse'; message: string };

/** The result once moved, and if someone moved the payment first. */
export interface Moved {
  moved: OutcomeResult;
  raced: OutcomeResult;
}
