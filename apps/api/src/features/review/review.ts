/**
 * A person's review of the payments software cannot settle: those flagged for review, and those
 * whose outcome M-PESA never gave (`unknown`, settled from the M-PESA statement). Nothing M-PESA
 * sends clears a flag (decide-outcome.ts); only this does, with the reviewer's note kept as an
 * event.
 */
import type { Kysely } from 'kysely';
import type { AuditActorKind } from '@mpesa/shared/contract-admin';
import { recordAudit } from '../../audit/audit.ts';
import { auditDetail } from '../../audit/audit-details.ts';
import type { Database, TransactionRow } from '../../db/schema.ts';
import {
  decide,
  recordEvent,
  statusEvent,
  tellOfPayment,
  findTransactionById,
  settleReview,
} from '../payments/index.ts';
import type { ReviewStatus } from '../payments/index.ts';
import { transact } from '../../db/transact.ts';

export { REVIEW_STATUSES, type ReviewStatus } from '../payments/index.ts';

export class ReviewError extends Error {
  override name = 'ReviewError';
}

/** No payment has the id: a ReviewError (the command line says so), answered 404 by the route. */
export class ReviewedPaymentMissing extends ReviewError {
  override name = 'ReviewedPaymentMissing';
}

/** Who reviews, for the event and the audit trail: an owner in the web app, or the command line. */
export interface Reviewer {
  actorKind: Extract<AuditActorKind, 'operator' | 'command'>;
  /** The owner's name; null for the command line. */
  actor: string | null;
  address: string | null;
}

const FROM_COMMAND: Reviewer = { actorKind: 'command', actor: null, address: null };

/** Payments waiting for a person: flagged, or with an unknown outcome; oldest first. */
export { listForReview } from '../payments/index.ts';

/**
 * Clears a payment's flag, keeping its status or settling it as `status` (required for an unknown
 * outcome), and records the reviewer's reason as an event. The rules are decide-outcome.ts's.
 */
export async function clearFlag(
  db: Kysely<Database>,
  id: string,
  review: { note: string; status?: ReviewStatus; now: Date; by?: Reviewer },
): Promise<TransactionRow> {
  const by = review.by ?? FROM_COMMAND;
  const note = review.note.trim();
  if (note === '') throw new ReviewError('Say why the flag is cleared (--note).');
  return transact(db, async (trx) => {
    const row = await findTransactionById(trx, id);
    if (!row) throw new ReviewedPaymentMissing(`No transaction ${id}.`);
    const decision = decide(
      // A review does not depend on where the status came from.
      { ...row, statusSource: null },
      { kind: 'review', note, ...(review.status ? { status: review.status } : {}) },
    );
    if (decision.kind === 'refuse') throw new ReviewError(decision.message);
    if (decision.kind !== 'clear_flag') throw new Error(`a review cannot ${decision.kind}`);
    const at = review.now.toISOString();
    // Only as the reviewer saw it: a flag raised meanwhile is not cleared unseen.
    const settled = await settleReview(trx, row, { status: decision.to, updated_at: at });
    if (!settled) throw new ReviewError(`Transaction ${id} changed meanwhile; look again.`);
    await recordEvent(trx, id, {
      source: 'review',
      from: row.status,
      to: decision.to,
      ...decision.event,
      // Who reviewed, for the timeline (the note is the reviewer's own words).
      payload: JSON.stringify({ reviewer: by.actor }),
      at,
    });
    await recordAudit(trx, {
      ...by,
      at: review.now,
      action: 'review',
      target: id,
      detail: auditDetail.reviewed(row.status, decision.to, note),
    });
    // A person settled it: the shop's systems hear of a new status, as of any other.
    if (decision.to !== row.status) {
      await tellOfPayment(trx, statusEvent(decision.to), id, at);
    }
    return { ...row, status: decision.to, flagged_reason: null, updated_at: at };
  });
}
