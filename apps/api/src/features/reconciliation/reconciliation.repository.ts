/**
 * The SQL of reconciliation's bookkeeping: which pending transactions are due a check, their
 * leases and schedules. Functions take `db` or `trx` first.
 */
import type { Kysely } from 'kysely';
import type { Database, TransactionRow } from '../../db/schema.ts';

type Db = Kysely<Database>;

/**
 * Claims up to `limit` pending transactions that are due a check, for `owner` until `leaseUntil`.
 * The lease conditions are repeated in the UPDATE itself: on PostgreSQL a concurrent claimer
 * re-checks them on the row it waited for, so no two instances claim the same transaction.
 */
export async function claimDueTransactions(
  db: Db,
  owner: string,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<TransactionRow[]> {
  return db
    .updateTable('transactions')
    .set({ lease_owner: owner, lease_until: leaseUntil })
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('transactions')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_check_at', '<=', now)
        .where((inner) =>
          inner.or([inner('lease_until', 'is', null), inner('lease_until', '<', now)]),
        )
        .orderBy('next_check_at')
        .limit(limit),
    )
    .returningAll()
    .execute();
}

/** Puts a claimed transaction back with its next check, if it is still pending and still ours. */
export async function rescheduleCheck(
  db: Db,
  id: string,
  owner: string,
  attempts: number,
  nextCheckAt: string,
): Promise<void> {
  await db
    .updateTable('transactions')
    .set({
      check_attempts: attempts,
      next_check_at: nextCheckAt,
      lease_owner: null,
      lease_until: null,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('lease_owner', '=', owner)
    .execute();
}

/** Every pending transaction's reconciliation schedule. */
export async function listPendingSchedules(db: Db) {
  return db
    .selectFrom('transactions')
    .select(['id', 'created_at', 'next_check_at', 'check_attempts'])
    .where('status', '=', 'pending')
    .execute();
}

/** Brings a pending transaction's next check forward to `nextCheckAt`, if it was later. */
export async function bringCheckForward(db: Db, id: string, nextCheckAt: string): Promise<void> {
  await db
    .updateTable('transactions')
    .set({ next_check_at: nextCheckAt })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('next_check_at', 'is', null), eb('next_check_at', '>', nextCheckAt)]))
    .execute();
}
