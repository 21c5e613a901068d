/**
 * Applies what M-PESA reports about a transaction (a callback or an STK query answer) through the
 * state machine, inside the caller's database transaction, and records it as an event.
 */
import type { Kysely } from 'kysely';
import { maskPhone, type TransactionStatus } from '@mpesa/shared';
import type { StkCallbackMetadata } from '../daraja/callback-parser.ts';
import { statusForResultCode } from '../daraja/result-codes.ts';
import type { Database, EventSource, TransactionPatch, TransactionRow } from '../db/schema.ts';
import { sortableId } from '../lib/sortable-id.ts';
import { MAX_LENGTH } from '../db/stored-lengths.ts';
import { decideTransition, isOpen } from './transaction-lifecycle.ts';
import * as repo from './transactions.repository.ts';

type Db = Kysely<Database>;

export interface ReportedOutcome {
  source: EventSource;
  resultCode: string;
  resultDesc: string;
  /** Only success callbacks carry metadata; STK query answers never do. */
  metadata: StkCallbackMetadata | null;
  /** The message as received, kept on the event. */
  payload: string;
}

export type OutcomeResult = 'applied' | 'duplicate' | 'ignored' | 'mismatch' | 'contradiction';

export async function recordEvent(
  db: Db,
  transactionId: string,
  event: {
    source: EventSource;
    from: TransactionStatus | null;
    to: TransactionStatus;
    note?: string | null;
    payload?: string | null;
    at: string;
  },
): Promise<void> {
  await repo.insertEvent(db, {
    id: sortableId(),
    transaction_id: transactionId,
    at: event.at,
    source: event.source,
    from_status: event.from,
    to_status: event.to,
    note: event.note ?? null,
    payload: event.payload ?? null,
  });
}

/** Moves a transaction from `from` to `to` with `patch`, and records it; false if someone moved it first. */
export async function transition(
  db: Db,
  row: Pick<TransactionRow, 'id' | 'status'>,
  to: TransactionStatus,
  patch: TransactionPatch,
  event: { source: EventSource; note?: string | null; payload?: string | null; at: string },
): Promise<boolean> {
  const moved = await repo.updateTransactionFrom(db, row.id, row.status, {
    ...patch,
    status: to,
    updated_at: event.at,
    ...(to === 'pending' ? {} : { next_check_at: null, lease_owner: null, lease_until: null }),
  });
  if (moved) await recordEvent(db, row.id, { ...event, from: row.status, to });
  return moved;
}

/** Success metadata that disagrees with our record means this is not the payment we asked for. */
function mismatchOf(row: TransactionRow, metadata: StkCallbackMetadata | null): string | null {
  if (!metadata) return null;
  if (metadata.amount !== null && metadata.amount !== Number(row.amount)) {
    return `M-PESA reported ${metadata.amount} KES, not ${row.amount} KES`;
  }
  if (metadata.phoneNumber !== null && metadata.phoneNumber !== row.phone_number) {
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

const UNCHECKABLE_SUCCESS =
  'M-PESA reported success with no amount, phone number or receipt to check it against';

const RECEIPT_TOO_LONG = `M-PESA sent a receipt longer than ${MAX_LENGTH.receiptNumber} characters; it is in the callback as received`;

const describeCode = (code: string | null) =>
  code === null ? 'no result' : `${code} (${statusForResultCode(code)})`;

/**
 * Flags a transaction for a person to review, keeping its status, and records why. A transaction
 * already flagged keeps its first reason; the event still says what happened.
 */
export async function flag(
  db: Db,
  row: TransactionRow,
  reason: string,
  event: { source: EventSource; payload: string | null; at: string },
): Promise<void> {
  if (!row.flagged_reason) {
    await repo.updateTransactionFrom(db, row.id, row.status, {
      flagged_reason: reason,
      updated_at: event.at,
    });
  }
  await recordEvent(db, row.id, {
    ...event,
    from: row.status,
    to: row.status,
    note: `flagged: ${reason}`,
  });
}

export async function applyOutcome(
  db: Db,
  row: TransactionRow,
  outcome: ReportedOutcome,
  at: string,
): Promise<OutcomeResult> {
  const to = statusForResultCode(outcome.resultCode);
  const event = { source: outcome.source, payload: outcome.payload, at };
  const metadata = outcome.resultCode === '0' ? outcome.metadata : null;
  const mismatch = to === 'success' ? mismatchOf(row, metadata) : null;

  // Daraja's success callbacks always carry the amount, the payer and the receipt (PROTOCOL.md §4):
  // one with none of them cannot be checked against our record, so it is not taken as the money
  // having moved. It is flagged for a person, and the status is left as it was: an open payment is
  // settled by the STK query that reconciliation sends, which is Daraja's own answer.
  if (to === 'success' && outcome.source === 'callback' && uncheckable(metadata)) {
    await flag(db, row, UNCHECKABLE_SUCCESS, event);
    return 'mismatch';
  }
  const sameResult = row.result_code === outcome.resultCode;

  const receipt = metadata?.mpesaReceiptNumber ?? null;
  // A success learnt from an STK query has no receipt; a late callback that matches our record
  // brings it, flagged or not.
  if (row.status === 'success' && to === 'success' && !mismatch && receipt) {
    if (!row.mpesa_receipt_number) {
      await repo.updateTransactionFrom(db, row.id, 'success', {
        mpesa_receipt_number: receipt,
        transaction_date: metadata?.transactionDate ?? null,
        updated_at: at,
      });
      await recordEvent(db, row.id, {
        ...event,
        from: 'success',
        to: 'success',
        note: 'receipt added by a late callback',
      });
      return 'applied';
    }
    if (row.mpesa_receipt_number !== receipt) {
      await flag(
        db,
        row,
        `M-PESA sent two receipts for this request: ${row.mpesa_receipt_number}, then ${receipt}`,
        event,
      );
      return 'contradiction';
    }
  }

  // Flagged for review, with an outcome: only a person clears the flag, and what M-PESA says
  // meanwhile is recorded and changes nothing, but for one thing: a success callback that matches
  // our record lifts a payment M-PESA never before reported paid (the money moved), still flagged.
  if (row.flagged_reason && !isOpen(row.status)) {
    const paidAtLast =
      to === 'success' &&
      !mismatch &&
      outcome.source === 'callback' &&
      row.status !== 'success' &&
      row.result_code !== '0';
    if (paidAtLast) {
      const moved = await transition(
        db,
        row,
        'success',
        {
          result_code: outcome.resultCode,
          response_description: outcome.resultDesc,
          mpesa_receipt_number: metadata?.mpesaReceiptNumber ?? null,
          transaction_date: metadata?.transactionDate ?? null,
        },
        { ...event, note: `late callback success lifted ${row.status}; still flagged for review` },
      );
      return moved ? 'applied' : 'ignored';
    }
    await recordEvent(db, row.id, {
      ...event,
      from: row.status,
      to: row.status,
      note: `not applied: flagged for review (${row.flagged_reason})`,
    });
    if (mismatch) return 'mismatch';
    return outcome.source === 'callback' && !sameResult ? 'contradiction' : 'ignored';
  }

  if (mismatch) {
    // Never marked success: the payer did not pay what we asked. Held as failed, flagged for review.
    if (isOpen(row.status)) {
      await transition(
        db,
        row,
        'failed',
        {
          result_code: outcome.resultCode,
          response_description: `Held for review: ${mismatch}.`,
          flagged_reason: row.flagged_reason ?? mismatch,
        },
        { ...event, note: `flagged: ${mismatch}` },
      );
    } else {
      await flag(db, row, mismatch, event);
    }
    return 'mismatch';
  }

  const earlierSource = isOpen(row.status)
    ? null
    : await repo.sourceOfStatus(db, row.id, row.status);
  const decision = decideTransition(
    row.status,
    { to, source: outcome.source, sameResult },
    earlierSource,
  );
  const contradiction = `M-PESA sent contradicting results for this request: ${describeCode(row.result_code)}, then ${describeCode(outcome.resultCode)}`;
  if (decision.kind === 'contradiction') {
    await flag(db, row, contradiction, event);
    return 'contradiction';
  }
  if (decision.kind !== 'apply') {
    const note =
      decision.kind === 'duplicate' ? `duplicate ${outcome.source}` : `ignored: ${decision.reason}`;
    await recordEvent(db, row.id, { ...event, from: row.status, to: row.status, note });
    return decision.kind === 'duplicate' ? 'duplicate' : 'ignored';
  }

  const patch: TransactionPatch = {
    result_code: outcome.resultCode,
    response_description: outcome.resultDesc,
  };
  if (decision.contradicts) patch.flagged_reason = contradiction;
  else if (metadata?.receiptTooLong) patch.flagged_reason = row.flagged_reason ?? RECEIPT_TOO_LONG;
  if (metadata) {
    patch.mpesa_receipt_number = metadata.mpesaReceiptNumber;
    patch.transaction_date = metadata.transactionDate;
  }
  const note =
    row.status === 'pending'
      ? null
      : row.status === 'unknown'
        ? `late ${outcome.source} settled the unknown outcome`
        : `late ${outcome.source} success lifted ${row.status}${decision.contradicts ? `; flagged: ${contradiction}` : ''}`;
  const moved = await transition(db, row, to, patch, { ...event, note });
  return moved ? 'applied' : 'ignored';
}
