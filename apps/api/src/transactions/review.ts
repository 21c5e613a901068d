/**
 * A person's review of the payments software cannot settle: those flagged for review, and those
 * whose outcome M-PESA never gave (`unknown`, settled from the M-PESA statement). Nothing M-PESA
 * sends clears a flag (transaction-outcome.ts); only this does, with the reviewer's note kept as an
 * event.
 */
import type { Kysely } from 'kysely';
import type { TransactionStatus } from '@mpesa/shared';
import type { Database, TransactionRow } from '../db/schema.ts';
import { recordEvent } from './transaction-outcome.ts';
import * as repo from './transactions.repository.ts';
import { transact } from '../db/transact.ts';

/** What a reviewer may settle a flagged payment as. */
export const REVIEW_STATUSES = ['success', 'failed', 'cancelled', 'timeout'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export class ReviewError extends Error {
  override name = 'ReviewError';
}

/** Payments waiting for a person: flagged, or with an unknown outcome; oldest first. */
export const listForReview = repo.listForReview;

/**
 * Clears a payment's flag, keeping its status or settling it as `status` (required for an unknown
 * outcome), and records the reviewer's reason as an event.
 */
export async function clearFlag(
  db: Kysely<Database>,
  id: string,
  review: { note: string; status?: ReviewStatus; now: Date },
): Promise<TransactionRow> {
  const note = review.note.trim();
  if (note === '') throw new ReviewError('Say why the flag is cleared (--note).');
  return transact(db, async (trx) => {
    const row = await repo.findTransactionById(trx, id);
    if (!row) throw new ReviewError(`No transaction ${id}.`);
    if (!row.flagged_reason && row.status !== 'unknown') {
      throw new ReviewError(`Transaction ${id} is neither flagged nor of unknown outcome.`);
    }
    if (row.status === 'pending') {
      throw new ReviewError(
        `Transaction ${id} is still waiting for M-PESA; review it once it has an outcome.`,
      );
    }
    if (row.status === 'unknown' && !review.status) {
      throw new ReviewError('Say what the M-PESA statement shows (--status).');
    }
    const to: TransactionStatus = review.status ?? row.status;
    const at = review.now.toISOString();
    // Only as the reviewer saw it: a flag raised meanwhile is not cleared unseen.
    const settled = await repo.settleReview(trx, row, { status: to, updated_at: at });
    if (!settled) throw new ReviewError(`Transaction ${id} changed meanwhile; look again.`);
    await recordEvent(trx, id, {
      source: 'review',
      from: row.status,
      to,
      note: `${row.flagged_reason ? `flag cleared (${row.flagged_reason})` : 'unknown outcome settled'}: ${note}`,
      at,
    });
    return { ...row, status: to, flagged_reason: null, updated_at: at };
  });
}
