/** The SQL of till and paybill payments and the receipt checks. Functions take `db` or `trx` first. */
import type { Kysely } from 'kysely';
import type {
  Database,
  NewTransactionRow,
  ReceiptCheckRow,
  TransactionRow,
} from '../../db/schema.ts';

type Db = Kysely<Database>;

/**
 * Inserts a till or paybill payment unless one with its receipt is already there: the unique
 * index on the receipt of till and paybill payments (migration 010) holds against two deliveries
 * at once on both databases (PostgreSQL's second insert waits for the first to commit, then does
 * nothing; SQLite has one writer). Returns whether this call inserted it.
 */
export async function insertC2bPayment(db: Db, row: NewTransactionRow): Promise<boolean> {
  const result = await db
    .insertInto('transactions')
    .values(row)
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** The payment in the history with this M-PESA receipt, whatever its channel (the first made). */
export async function findByReceipt(db: Db, receipt: string): Promise<TransactionRow | undefined> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('mpesa_receipt_number', '=', receipt)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

/**
 * Whether an open payment request has this reference: a prompt payment created since `since`,
 * none of those with the reference paid (docs/product.md §11 "open invoice"). A reference paid
 * already is no longer open, so a second payment to it is refused. A customer types the account
 * number on a phone's keypad, so it matches whatever its letter case and spaces around it: both
 * sides are compared trimmed and lower-cased by the same database function.
 */
export async function hasOpenInvoice(db: Db, reference: string, since: string): Promise<boolean> {
  const rows = await db
    .selectFrom('transactions')
    .select('status')
    .where((eb) =>
      eb(
        eb.fn('lower', [eb.fn('trim', [eb.ref('reference')])]),
        '=',
        eb.fn('lower', [eb.val(reference.trim())]),
      ),
    )
    .where('channel', '=', 'prompt')
    .where('created_at', '>=', since)
    .limit(200)
    .execute();
  return rows.length > 0 && rows.every((row) => row.status !== 'success');
}

export async function insertReceiptCheck(db: Db, row: ReceiptCheckRow): Promise<void> {
  await db.insertInto('receipt_checks').values(row).execute();
}

export async function findReceiptCheck(db: Db, id: string): Promise<ReceiptCheckRow | undefined> {
  return db.selectFrom('receipt_checks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The check a transaction status Result answers, by the query's OriginatorConversationID. */
export async function findReceiptCheckByQuery(
  db: Db,
  originatorConversationId: string,
): Promise<ReceiptCheckRow | undefined> {
  return db
    .selectFrom('receipt_checks')
    .selectAll()
    .where('originator_conversation_id', '=', originatorConversationId)
    .executeTakeFirst();
}

/** Settles a check still `asked` (an answer that came twice settles it once). */
export async function settleReceiptCheck(
  db: Db,
  id: string,
  settled: Pick<ReceiptCheckRow, 'status' | 'transaction_id' | 'result_code' | 'updated_at'> &
    Partial<Pick<ReceiptCheckRow, 'originator_conversation_id'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('receipt_checks')
    .set(settled)
    .where('id', '=', id)
    .where('status', '=', 'asked')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records the query's OriginatorConversationID, by which its Result finds the check. */
export async function setReceiptCheckQuery(
  db: Db,
  id: string,
  originatorConversationId: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('receipt_checks')
    .set({ originator_conversation_id: originatorConversationId, updated_at: at })
    .where('id', '=', id)
    .execute();
}
