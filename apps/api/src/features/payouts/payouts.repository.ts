/** The SQL of payouts and their recovery's bookkeeping. Functions take `db` or `trx` first. */
import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { PayoutStatus } from '@mpesa/shared/contract-payouts';
import type { Database, PayoutRow, PayoutTable } from '../../db/schema.ts';
import type { ListPosition } from '../../db/list-cursor.ts';
import { onPostgres } from '../../db/transact.ts';

type Db = Kysely<Database>;
export type PayoutPatch = Updateable<PayoutTable>;
export type NewPayout = Insertable<PayoutTable>;

/** The statuses whose money is spent or may be: they count against the day's limit. */
export const COUNTED: readonly PayoutStatus[] = ['proposed', 'sending', 'succeeded', 'unknown'];

export async function insertPayouts(db: Db, payouts: NewPayout[]): Promise<void> {
  if (payouts.length > 0) await db.insertInto('payouts').values(payouts).execute();
}

export async function findPayoutById(db: Db, id: string): Promise<PayoutRow | undefined> {
  return db.selectFrom('payouts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listPayouts(db: Db, limit: number, batchId?: string): Promise<PayoutRow[]> {
  let query = db.selectFrom('payouts').selectAll();
  if (batchId !== undefined) query = query.where('batch_id', '=', batchId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Which payouts a page or an export holds: statuses, and when proposed, as [since, until). */
export interface PayoutSelection {
  statuses?: readonly PayoutStatus[] | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

/**
 * A page of the payouts `selection` holds, newest first (by when proposed), from after `after`;
 * read on the creation index.
 */
export async function listPayoutsPage(
  db: Db,
  selection: PayoutSelection,
  after: ListPosition | undefined,
  limit: number,
): Promise<PayoutRow[]> {
  let query = db.selectFrom('payouts').selectAll();
  if (selection.statuses) query = query.where('status', 'in', selection.statuses);
  if (selection.since) query = query.where('created_at', '>=', selection.since);
  if (selection.until) query = query.where('created_at', '<', selection.until);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/**
 * The payouts M-PESA paid that were approved in [from, to) (when M-PESA moves the money, as the
 * balance counts them): how many, their total, and M-PESA's charges, in cents.
 */
export async function paidOutBetween(db: Db, from: string, to: string) {
  const row = await db
    .selectFrom('payouts')
    .select((eb) => [
      eb.fn.countAll<string | number>().as('count'),
      eb.fn.sum<string | number | null>('amount').as('total'),
      eb.fn.sum<string | number | null>('charge_cents').as('charges'),
    ])
    .where('status', '=', 'succeeded')
    .where('decided_at', '>=', from)
    .where('decided_at', '<', to)
    .executeTakeFirst();
  return {
    count: Number(row?.count ?? 0),
    amount: Number(row?.total ?? 0),
    chargeCents: Number(row?.charges ?? 0),
  };
}

/** How many payouts wait for an owner's approval. */
export async function countWaiting(db: Db): Promise<number> {
  const row = await db
    .selectFrom('payouts')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('status', '=', 'proposed')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The proposed payouts of a batch, oldest first. */
export async function proposedOfBatch(db: Db, batchId: string): Promise<PayoutRow[]> {
  return db
    .selectFrom('payouts')
    .selectAll()
    .where('batch_id', '=', batchId)
    .where('status', '=', 'proposed')
    .orderBy('id')
    .execute();
}

/**
 * Until the transaction ends, no other proposal counts the day's payouts: on PostgreSQL a
 * transaction-level advisory lock, so that two proposals at once cannot both pass the daily limit
 * on the same count. (SQLite runs one writing transaction at a time already.)
 */
export async function lockDailyLimit(db: Db): Promise<void> {
  if (onPostgres(db)) {
    await sql`select pg_advisory_xact_lock(hashtext('payouts.daily-limit'))`.execute(db);
  }
}

/** What the payouts created in [from, to) that count against the day's limit add up to. */
export async function countedBetween(db: Db, from: string, to: string): Promise<number> {
  const row = await db
    .selectFrom('payouts')
    .select((eb) => eb.fn.sum<string | number | null>('amount').as('total'))
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where('status', 'in', COUNTED)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** A payout correcting `id` that is not itself declined or failed. */
export async function liveCorrectionOf(db: Db, id: string): Promise<PayoutRow | undefined> {
  return db
    .selectFrom('payouts')
    .selectAll()
    .where('corrects_id', '=', id)
    .where('status', 'not in', ['declined', 'failed'])
    .executeTakeFirst();
}

/**
 * Updates a payout only while it has the status the caller decided from: of two owners approving
 * at once, one changes the row (PostgreSQL re-reads the condition once the first commits; SQLite
 * has one writer). Whether it did.
 */
export async function updatePayoutFrom(
  db: Db,
  id: string,
  expected: PayoutStatus,
  patch: PayoutPatch,
): Promise<boolean> {
  const result = await db
    .updateTable('payouts')
    .set(patch)
    .where('id', '=', id)
    .where('status', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The payout a Result is about: by our OriginatorConversationID, then Daraja's ConversationID. */
export async function findPayoutByConversation(
  db: Db,
  ids: { originatorConversationId: string; conversationId: string },
): Promise<PayoutRow | undefined> {
  const byOriginator = await db
    .selectFrom('payouts')
    .selectAll()
    .where('originator_conversation_id', '=', ids.originatorConversationId)
    .executeTakeFirst();
  if (byOriginator) return byOriginator;
  return db
    .selectFrom('payouts')
    .selectAll()
    .where('conversation_id', '=', ids.conversationId)
    .executeTakeFirst();
}

/** The payout a transaction status query was asked about, by the query's id, or the payout's. */
export async function findPayoutByStatusQuery(
  db: Db,
  ids: { statusQueryId: string; original: string | null },
): Promise<PayoutRow | undefined> {
  const byQuery = await db
    .selectFrom('payouts')
    .selectAll()
    .where('status_query_id', '=', ids.statusQueryId)
    .executeTakeFirst();
  if (byQuery || ids.original === null) return byQuery;
  return db
    .selectFrom('payouts')
    .selectAll()
    .where('originator_conversation_id', '=', ids.original)
    .executeTakeFirst();
}

/**
 * Claims up to `limit` payouts due a check (their outcome, or a paid one's charge), for `owner`
 * until `leaseUntil`; the lease conditions are repeated in the UPDATE, so that no two instances
 * claim one payout (features/refunds/refunds.repository.ts claims refunds alike).
 */
export async function claimDuePayouts(
  db: Db,
  owner: string,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<PayoutRow[]> {
  return db
    .updateTable('payouts')
    .set({ lease_owner: owner, lease_until: leaseUntil })
    .where('next_check_at', 'is not', null)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('payouts')
        .select('id')
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

/** Patches a claimed payout and lets go of it, if it is still `owner`'s and still `status`. */
export async function releasePayout(
  db: Db,
  id: string,
  owner: string,
  status: PayoutStatus,
  patch: PayoutPatch,
): Promise<boolean> {
  const result = await db
    .updateTable('payouts')
    .set({ ...patch, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('status', '=', status)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Holds a payout still `sending` for `owner` until `leaseUntil`, unless another holds it. */
export async function holdPayout(
  db: Db,
  id: string,
  owner: string,
  now: string,
  leaseUntil: string,
): Promise<PayoutRow | undefined> {
  return db
    .updateTable('payouts')
    .set({ lease_owner: owner, lease_until: leaseUntil })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returningAll()
    .executeTakeFirst();
}
