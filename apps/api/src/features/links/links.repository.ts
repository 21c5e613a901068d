/** The SQL of payment links and of the payments made through them. Functions take `db` or `trx` first. */
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, PaymentLinkRow, PaymentLinkTable } from '../../db/schema.ts';
import { onPostgres } from '../../db/transact.ts';

type Db = Kysely<Database>;

/** The statuses of a payment that is paid: what a link has collected. */
const PAID = ['success'] as const;
/** The statuses of a payment that holds a one-payment link (migration 019's index). */
export const HOLDING = ['pending', 'success', 'unknown', 'refunded'] as const;

export async function insertLink(db: Db, link: Insertable<PaymentLinkTable>): Promise<void> {
  await db.insertInto('payment_links').values(link).execute();
}

export async function findLinkById(db: Db, id: string): Promise<PaymentLinkRow | undefined> {
  return db.selectFrom('payment_links').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findLinkByCode(db: Db, code: string): Promise<PaymentLinkRow | undefined> {
  return db.selectFrom('payment_links').selectAll().where('code', '=', code).executeTakeFirst();
}

export async function listLinks(db: Db, limit: number): Promise<PaymentLinkRow[]> {
  return db
    .selectFrom('payment_links')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** What each of `ids` has collected: its paid payments, how many and their sum. */
export async function totalsOf(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { paidCount: number; collected: number }>> {
  const totals = new Map<string, { paidCount: number; collected: number }>();
  if (ids.length === 0) return totals;
  const rows = await db
    .selectFrom('transactions')
    .select((eb) => [
      'link_id',
      eb.fn.countAll<string | number>().as('paid'),
      eb.fn.sum<string | number>('amount').as('collected'),
    ])
    .where('link_id', 'in', ids)
    .where('status', 'in', PAID)
    .groupBy('link_id')
    .execute();
  for (const row of rows) {
    if (row.link_id === null) continue;
    totals.set(row.link_id, { paidCount: Number(row.paid), collected: Number(row.collected) });
  }
  return totals;
}

/**
 * Until the transaction ends, no other payment of the link is saved: on PostgreSQL a
 * transaction-level advisory lock on the link, so that two payers at once cannot both find it
 * free. (SQLite runs one writing transaction at a time already.)
 */
export async function lockLink(db: Db, id: string): Promise<void> {
  if (onPostgres(db))
    await sql`select pg_advisory_xact_lock(hashtext(${`links.pay:${id}`}))`.execute(db);
}

/** Whether a payment through the link holds it (paid, or may be): for a one-payment link. */
export async function holderOf(db: Db, id: string): Promise<{ status: string } | undefined> {
  return db
    .selectFrom('transactions')
    .select('status')
    .where('link_id', '=', id)
    .where('status', 'in', HOLDING)
    .executeTakeFirst();
}

/** The payments made through the link, newest first. */
export async function paymentsOf(db: Db, id: string, limit: number) {
  return db
    .selectFrom('transactions')
    .select(['id', 'amount', 'status', 'phone_number', 'mpesa_receipt_number', 'created_at'])
    .where('link_id', '=', id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Switches the link off, once: whether this call did. */
export async function switchOff(db: Db, id: string, by: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('payment_links')
    .set({ switched_off_at: at, switched_off_by: by })
    .where('id', '=', id)
    .where('switched_off_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
