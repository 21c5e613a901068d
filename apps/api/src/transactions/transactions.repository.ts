/** All SQL about transactions, their events and raw callbacks. Functions take `db` or `trx` first. */
import type { Kysely } from 'kysely';
import type {
  Database,
  NewCallbackRow,
  NewTransactionEventRow,
  NewTransactionRow,
  TransactionPatch,
  TransactionRow,
} from '../db/schema.ts';

type Db = Kysely<Database>;

export async function insertTransaction(db: Db, row: NewTransactionRow): Promise<void> {
  await db.insertInto('transactions').values(row).execute();
}

export async function findTransactionById(db: Db, id: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findTransactionByCheckoutId(
  db: Db,
  checkoutRequestId: string,
): Promise<TransactionRow | undefined> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('checkout_request_id', '=', checkoutRequestId)
    .executeTakeFirst();
}

/** Newest first; ties on the creation instant are broken by id so paging is stable. */
export async function listTransactions(db: Db, limit: number): Promise<TransactionRow[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Updates a transaction only while it still has the status the caller decided from, so two writers
 * racing on one transaction cannot both apply a change. Returns whether the row changed.
 */
export async function updateTransactionFrom(
  db: Db,
  id: string,
  expectedStatus: TransactionRow['status'],
  patch: TransactionPatch,
): Promise<boolean> {
  const result = await db
    .updateTable('transactions')
    .set(patch)
    .where('id', '=', id)
    .where('status', '=', expectedStatus)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertEvent(db: Db, event: NewTransactionEventRow): Promise<void> {
  await db.insertInto('transaction_events').values(event).execute();
}

export async function listEvents(db: Db, transactionId: string) {
  return db
    .selectFrom('transaction_events')
    .selectAll()
    .where('transaction_id', '=', transactionId)
    .orderBy('at')
    .orderBy('id')
    .execute();
}

export async function insertCallback(db: Db, row: NewCallbackRow): Promise<void> {
  await db.insertInto('callbacks').values(row).execute();
}

export async function listCallbacks(db: Db, checkoutRequestId: string) {
  return db
    .selectFrom('callbacks')
    .selectAll()
    .where('checkout_request_id', '=', checkoutRequestId)
    .orderBy('received_at')
    .execute();
}
