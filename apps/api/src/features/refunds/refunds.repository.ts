/** The SQL of refunds and their recovery's bookkeeping. Functions take `db` or `trx` first. */
import type { Kysely, Updateable } from 'kysely';
import type { RefundStatus } from '@mpesa/shared';
import type { Database, RefundRow, RefundTable } from '../../db/schema.ts';

type Db = Kysely<Database>;
export type RefundPatch = Updateable<RefundTable>;
export type NewRefund = Omit<RefundRow, 'check_attempts'>;

/**
 * Inserts a payment's refund unless it has one: the unique `transaction_id` decides between two
 * owners at once (on PostgreSQL the second waits for the first's commit, then inserts nothing).
 * Whether this one was inserted.
 */
export async function insertRefund(db: Db, refund: NewRefund): Promise<boolean> {
  const inserted = await db
    .insertInto('refunds')
    .values(refund)
    .onConflict((conflict) => conflict.column('transaction_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Asks again for a refund that failed, only while it is still failed: of two retries at once, one
 * changes the row (PostgreSQL re-reads the condition once the first commits). Whether it did.
 */
export async function retryFailedRefund(db: Db, id: string, patch: RefundPatch): Promise<boolean> {
  const result = await db
    .updateTable('refunds')
    .set({ ...patch, status: 'requested' })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Updates a refund only while it has the status the caller decided from. Whether it did. */
export async function updateRefundFrom(
  db: Db,
  id: string,
  expected: RefundStatus,
  patch: RefundPatch,
): Promise<boolean> {
  const result = await db
    .updateTable('refunds')
    .set(patch)
    .where('id', '=', id)
    .where('status', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findRefundById(db: Db, id: string): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The refund whose reversal request had this OriginatorConversationID. */
export async function findRefundByOriginator(
  db: Db,
  originatorConversationId: string,
): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('originator_conversation_id', '=', originatorConversationId)
    .executeTakeFirst();
}

/** The refund whose reversal had this OriginatorConversationID, or failing that ConversationID. */
export async function findRefundByConversation(
  db: Db,
  ids: { originatorConversationId: string; conversationId: string },
): Promise<RefundRow | undefined> {
  const byOriginator = await findRefundByOriginator(db, ids.originatorConversationId);
  if (byOriginator) return byOriginator;
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('conversation_id', '=', ids.conversationId)
    .executeTakeFirst();
}

/** The refund a transaction status query was asked about, by the query's OriginatorConversationID. */
export async function findRefundByStatusQuery(
  db: Db,
  statusQueryId: string,
): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('status_query_id', '=', statusQueryId)
    .executeTakeFirst();
}

/**
 * Claims up to `limit` requested refunds due a check, for `owner` until `leaseUntil`. The lease
 * conditions are repeated in the UPDATE itself, as reconciliation's claim does
 * (features/reconciliation/reconciliation.repository.ts), so that no two instances claim the same refund.
 */
export async function claimDueRefunds(
  db: Db,
  owner: string,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<RefundRow[]> {
  return db
    .updateTable('refunds')
    .set({ lease_owner: owner, lease_until: leaseUntil })
    .where('status', '=', 'requested')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('refunds')
        .select('id')
        .where('status', '=', 'requested')
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

/** Patches a claimed refund and lets go of it, if it is still requested and still `owner`'s. */
export async function releaseRefund(
  db: Db,
  id: string,
  owner: string,
  patch: RefundPatch,
): Promise<void> {
  await db
    .updateTable('refunds')
    .set({ ...patch, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('status', '=', 'requested')
    .where('lease_owner', '=', owner)
    .execute();
}
