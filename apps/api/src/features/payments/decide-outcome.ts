/**
 * One decision: what a report about a payment does to it, from the payment as stored. Pure: the
 * writer (transaction-outcome.ts) carries the decision out and decides nothing of its own.
 *
 * The reports: a callback, an STK query answer (M-PESA's), reconciliation giving up, a person's
 * review. The state machine for the last step is transaction-lifecycle.ts.
 */
import { maskPhone, type TransactionStatus } from '@mpesa/shared';
import type { StkCallbackMetadata } from '../../daraja/callback-parser.ts';
import { statusForResultCode } from '../../daraja/result-codes.ts';
import type { TransactionPatch } from '../../db/schema.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';
import type {
  Decision,
  EventPlan,
  Moved,
  OutcomeResult,
  Report,
  StoredPayment,
} from './decision.ts';
import { decideTransition, isOpen } from './transaction-lifecycle.ts';

const APPLIED: Moved = { moved: 'applied', raced: 'ignored' };

export const UNCHECKABLE_SUCCESS =
  'M-PESA reported success with no amount, phone number or receipt to check it against';

const RECEIPT_TOO_LONG = `M-PESA sent a receipt longer than ${MAX_LENGTH.receiptNumber} characters; it is in the callback as received`;

const describeCode = (code: string | null) =>
  code === null ? 'no result' : `${code} (${statusForResultCode(code)})`;

/** Success metadata that disagrees with our record means this is not the payment we asked for. */
function mismatchOf(row: StoredPayment, metadata: StkCallbackMetadata | null): string | null {
  if (!metadata) return null;
  if (metadata.amount !== null && metadata.amount !== Number(row.amount)) {
    return `M-PESA reported ${metadata.amount} KES, not ${row.amount} KES`;
  }
  // A number masked by PHONE_RETENTION_DAYS cannot be compared: the amount still is.
  const masked = row.phone_number.includes('*');
  if (metadata.phoneNumber !== null && !masked && metadata.phoneNumber !== row.phone_number) {
    return `M-PESA reported the payer ${maskPhone(metadata.phoneNumber)}, not ${maskPhone(row.phone_number)}`;
  }
  return null;
}

/** A success report with nothing in it to compare with the payment: no amount, payer or receipt. */
function uncheckable(metadata: StkCallbackMetadata | null): boolean {
  return (
    metadata === null ||
    (metadata.amount === null && metadata.phoneNumber === null && !metadata.mpesaReceiptNumber)
  );
}

/**
 * Flags a payment for a person to review, keeping its status. A payment already flagged keeps its
 * first reason; the event still says what happened.
 */
export function flagged(
  row: Pick<StoredPayment, 'flagged_reason'>,
  reason: string,
  result: OutcomeResult = 'mismatch',
): Decision {
  return {
    kind: 'keep',
    patch: row.flagged_reason ? null : { flagged_reason: reason },
    event: { kind: 'flagged', note: `flagged: ${reason}`, reason },
    result,
  };
}

/** What a report does to the payment `row`. */
export function decide(row: StoredPayment, report: Report): Decision {
  switch (report.kind) {
    case 'callback':
    case 'query':
      return decideReport(row, report);
    case 'gave_up':
      return {
        kind: 'move',
        to: 'unknown',
        patch: { response_description: unknownOutcomeText(row, report.why) },
        event: { kind: 'gave_up', note: report.why },
        result: APPLIED,
      };
    case 'review':
      return decideReview(row, report);
  }
}

/** Why the outcome is unknown, and what the merchant should do about it. */
function unknownOutcomeText(row: Pick<StoredPayment, 'amount'>, why: string): string {
  return (
    `${why} Whether the payer paid is not known: check the M-PESA statement for a payment of ` +
    `${Number(row.amount)} KES from this phone number before asking for the money again.`
  );
}

function decideReview(row: StoredPayment, review: Extract<Report, { kind: 'review' }>): Decision {
  if (!row.flagged_reason && row.status !== 'unknown') {
    return {
      kind: 'refuse',
      message: `Transaction ${row.id} is neither flagged nor of unknown outcome.`,
    };
  }
  if (row.status === 'pending') {
    return {
      kind: 'refuse',
      message: `Transaction ${row.id} is still waiting for M-PESA; review it once it has an outcome.`,
    };
  }
  // Refunded is final (transaction-lifecycle.ts): the money went back, and no review says it did
  // not. A flag raised before the refund may still be cleared, the payment staying refunded.
  if (row.status === 'refunded' && review.status !== undefined) {
    return {
      kind: 'refuse',
      message: `Transaction ${row.id} was refunded: its money went back, so it stays refunded. Clear the flag without a status.`,
    };
  }
  if (row.status === 'unknown' && !review.status) {
    return { kind: 'refuse', message: 'Say what the M-PESA statement shows (--status).' };
  }
  const event: EventPlan = row.flagged_reason
    ? { kind: 'flag_cleared', note: `flag cleared (${row.flagged_reason}): ${review.note}` }
    : { kind: 'unknown_settled', note: `unknown outcome settled: ${review.note}` };
  return { kind: 'clear_flag', to: review.status ?? row.status, event };
}

type MpesaReport = Extract<Report, { kind: 'callback' | 'query' }>;

/** What M-PESA's report says, read once. */
interface Reading {
  to: Exclude<TransactionStatus, 'pending'>;
  /** A success callback's metadata (null for anything else). */
  metadata: StkCallbackMetadata | null;
  /** How a success disagrees with our record, if it does. */
  mismatch: string | null;
}

function decideReport(row: StoredPayment, report: MpesaReport): Decision {
  const source = report.kind;
  // Daraja delivered this very callback before: whatever happened since (a person's review
  // included), a redelivery changes nothing.
  if (report.kind === 'callback' && report.redelivered) {
    return {
      kind: 'keep',
      patch: null,
      event: { kind: 'duplicate', note: 'duplicate callback' },
      result: 'duplicate',
    };
  }
  const to = statusForResultCode(report.resultCode);
  const metadata = report.kind === 'callback' && report.resultCode === '0' ? report.metadata : null;
  // Refunded is final (transaction-lifecycle.ts): whatever M-PESA says of the payment now, its
  // money went back. Nothing is flagged (a flag would let a review move it), only recorded as a
  // duplicate or ignored, as the state machine says.
  if (row.status === 'refunded') return lastStep(row, report, { to, metadata, mismatch: null });
  const mismatch = to === 'success' ? mismatchOf(row, metadata) : null;

  // Daraja's success callbacks always carry the amount, the payer and the receipt
  // (docs/daraja-protocol.md §4): one with none of them cannot be checked against our record, so it
  // is not taken as the money having moved. It is flagged for a person, and the status is left as
  // it was: an open payment is settled by the STK query that reconciliation sends, which is
  // Daraja's own answer.
  if (to === 'success' && source === 'callback' && uncheckable(metadata)) {
    return flagged(row, UNCHECKABLE_SUCCESS);
  }
  const receipt = metadata?.mpesaReceiptNumber ?? null;
  // A success learnt from an STK query has no receipt; a late callback that matches our record
  // brings it, flagged or not.
  if (row.status === 'success' && to === 'success' && !mismatch && receipt) {
    if (!row.mpesa_receipt_number) {
      return {
        kind: 'keep',
        patch: {
          mpesa_receipt_number: receipt,
          transaction_date: metadata?.transactionDate ?? null,
        },
        event: { kind: 'receipt_added', note: 'receipt added by a late callback' },
        result: 'applied',
      };
    }
    if (row.mpesa_receipt_number !== receipt) {
      const reason = `M-PESA sent two receipts for this request: ${row.mpesa_receipt_number}, then ${receipt}`;
      return flagged(row, reason, 'contradiction');
    }
  }
  if (row.flagged_reason && !isOpen(row.status)) {
    return underReview(row, report, { to, metadata, mismatch });
  }
  if (mismatch) {
    // Never marked success: the payer did not pay what we asked. Held as failed, flagged for review.
    if (!isOpen(row.status)) return flagged(row, mismatch);
    return {
      kind: 'move',
      to: 'failed',
      patch: {
        result_code: report.resultCode,
        response_description: `Held for review: ${mismatch}.`,
        flagged_reason: row.flagged_reason ?? mismatch,
      },
      event: { kind: 'flagged', note: `flagged: ${mismatch}`, reason: mismatch },
      result: { moved: 'mismatch', raced: 'mismatch' },
    };
  }
  return lastStep(row, report, { to, metadata, mismatch });
}

/**
 * Flagged for review, with an outcome: only a person clears the flag, and what M-PESA says
 * meanwhile is recorded and changes nothing, but for one thing: a success callback that matches
 * our record lifts a payment M-PESA never before reported paid (the money moved), still flagged.
 */
function underReview(
  row: StoredPayment,
  report: MpesaReport,
  { to, metadata, mismatch }: Reading,
): Decision {
  if (
    report.kind === 'callback' &&
    to === 'success' &&
    !mismatch &&
    row.status !== 'success' &&
    row.result_code !== '0'
  ) {
    return {
      kind: 'move',
      to: 'success',
      patch: {
        result_code: report.resultCode,
        response_description: report.resultDesc,
        mpesa_receipt_number: metadata?.mpesaReceiptNumber ?? null,
        transaction_date: metadata?.transactionDate ?? null,
      },
      event: {
        kind: 'lifted_under_review',
        note: `late callback success lifted ${row.status}; still flagged for review`,
      },
      result: APPLIED,
    };
  }
  const sameResult = row.result_code === report.resultCode;
  return {
    kind: 'keep',
    patch: null,
    event: {
      kind: 'not_applied_under_review',
      note: `not applied: flagged for review (${row.flagged_reason})`,
    },
    result: mismatch
      ? 'mismatch'
      : report.kind === 'callback' && !sameResult
        ? 'contradiction'
        : 'ignored',
  };
}

/** The state machine's step (transaction-lifecycle.ts), once nothing above applies. */
function lastStep(row: StoredPayment, report: MpesaReport, { to, metadata }: Reading): Decision {
  const source = report.kind;
  const sameResult = row.result_code === report.resultCode;
  const transition = decideTransition(row.status, { to, source, sameResult }, row.statusSource);
  const contradiction = `M-PESA sent contradicting results for this request: ${describeCode(row.result_code)}, then ${describeCode(report.resultCode)}`;
  if (transition.kind === 'contradiction') return flagged(row, contradiction, 'contradiction');
  if (transition.kind === 'duplicate') {
    const event: EventPlan = { kind: 'duplicate', note: `duplicate ${source}` };
    return { kind: 'keep', patch: null, event, result: 'duplicate' };
  }
  if (transition.kind === 'ignore') {
    const { reason } = transition;
    const event: EventPlan = { kind: 'ignored', note: `ignored: ${reason}`, reason };
    return { kind: 'keep', patch: null, event, result: 'ignored' };
  }

  const patch: TransactionPatch = {
    result_code: report.resultCode,
    response_description: report.resultDesc,
  };
  if (transition.contradicts) patch.flagged_reason = contradiction;
  else if (metadata?.receiptTooLong) patch.flagged_reason = row.flagged_reason ?? RECEIPT_TOO_LONG;
  if (metadata) {
    patch.mpesa_receipt_number = metadata.mpesaReceiptNumber;
    patch.transaction_date = metadata.transactionDate;
  }
  const lifted = `late ${source} success lifted ${row.status}`;
  const event: EventPlan =
    row.status === 'pending'
      ? { kind: 'applied', note: null }
      : row.status === 'unknown'
        ? { kind: 'settled_unknown', note: `late ${source} settled the unknown outcome` }
        : transition.contradicts
          ? {
              kind: 'lifted_flagged',
              note: `${lifted}; flagged: ${contradiction}`,
              reason: contradiction,
            }
          : { kind: 'lifted', note: lifted };
  return { kind: 'move', to, patch, event, result: APPLIED };
}
