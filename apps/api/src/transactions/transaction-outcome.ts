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
import { decideTransition } from './transaction-lifecycle.ts';
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

export type OutcomeResult = 'applied' | 'duplicate' | 'ignored' | 'mismatch';

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
  if (mismatch) {
    // Never marked success: the payer did not pay what we asked. Held as failed, flagged for review.
    if (row.status === 'pending') {
      await transition(
        db,
        row,
        'failed',
        {
          result_code: outcome.resultCode,
          response_description: `Held for review: ${mismatch}.`,
          flagged_reason: mismatch,
        },
        { ...event, note: `flagged: ${mismatch}` },
      );
    } else {
      await recordEvent(db, row.id, {
        ...event,
        from: row.status,
        to: row.status,
        note: `flagged: ${mismatch}`,
      });
    }
    return 'mismatch';
  }

  // A success learnt from an STK query has no receipt; a late callback may still bring it.
  if (
    row.status === 'success' &&
    to === 'success' &&
    metadata?.mpesaReceiptNumber &&
    !row.mpesa_receipt_number
  ) {
    await repo.updateTransactionFrom(db, row.id, 'success', {
      mpesa_receipt_number: metadata.mpesaReceiptNumber,
      transaction_date: metadata.transactionDate,
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

  const decision = decideTransition(
    row.status,
    to,
    outcome.source,
    row.result_code === outcome.resultCode,
  );
  if (decision.kind !== 'apply') {
    const note =
      decision.kind === 'duplicate' ? `duplicate ${outcome.source}` : `ignored: ${decision.reason}`;
    await recordEvent(db, row.id, { ...event, from: row.status, to: row.status, note });
    return decision.kind === 'duplicate' ? 'duplicate' : 'ignored';
  }

  const patch: TransactionPatch = {
    result_code: outcome.resultCode,
    response_description: outcome.resultDesc,
    flagged_reason: null,
  };
  if (metadata) {
    patch.mpesa_receipt_number = metadata.mpesaReceiptNumber;
    patch.transaction_date = metadata.transactionDate;
  }
  const note =
    row.status === 'pending' ? null : `late ${outcome.source} success lifted ${row.status}`;
  const moved = await transition(db, row, to, patch, { ...event, note });
  return moved ? 'applied' : 'ignored';
}
