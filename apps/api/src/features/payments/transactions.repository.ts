/**
 * The payments' SQL: a payment, its events and raw callbacks, and its refund as its views read it
 * (the history reads payments in history.repository.ts). Functions take `db` or `trx` first.
 */
import { sql, type Kysely } from 'kysely';
import { maskCheckoutId } from '@mpesa/shared';
import type { DialectName } from '../../db/create-db.ts';
import { isOwnId } from '../../lib/stored-lengths.ts';
import type {
  CallbackOutcome,
  Database,
  NewCallbackRow,
  NewTransactionEventRow,
  RefundRow,
  TransactionPatch,
  TransactionRow,
} from '../../db/schema.ts';

type Db = Kysely<Database>;

/** The payment with this id; an id that cannot be ours (isOwnId) finds none without a query. */
export async function findTransactionById(db: Db, id: string): Promise<TransactionRow | undefined> {
  if (!isOwnId(id)) return undefined;
  return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Finds a transaction by Daraja's CheckoutRequestID. Inside a database transaction on PostgreSQL the
 * row is locked, so that two instances handling the same callback take turns; SQLite has a single
 * writer and needs (and understands) no row lock.
 */
export async function findTransactionByCheckoutId(
  db: Db,
  checkoutRequestId: string,
  lock: DialectName | false = false,
): Promise<TransactionRow | undefined> {
  const found = await db
    .selectFrom('transactions')
    .selectAll()
    .where('checkout_request_id', '=', checkoutRequestId)
    .$if(lock === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
  return found ?? findMaskedByCheckoutId(db, checkoutRequestId, lock);
}

/**
 * A payment whose number retention masked keeps its CheckoutRequestID masked as logs show it
 * (maskCheckoutId; with `/<payment id>` after it where two would mask alike): a late callback with
 * the real id still finds it, unless the masked form could be two payments. Asked only when no
 * payment has the id itself (a callback ahead of its acknowledgement comes here too), so the first
 * question is one lookup on the index: a `/<payment id>` form exists only beside a payment holding
 * the masked form itself, and is looked for only then.
 */
async function findMaskedByCheckoutId(
  db: Db,
  checkoutRequestId: string,
  lock: DialectName | false,
): Promise<TransactionRow | undefined> {
  const masked = maskCheckoutId(checkoutRequestId);
  if (masked === checkoutRequestId) return undefined;
  const holder = await db
    .selectFrom('transactions')
    .selectAll()
    .where('checkout_request_id', '=', masked)
    .where('phone_masked_at', 'is not', null)
    .$if(lock === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
  if (!holder) return undefined;
  const alike = await db
    .selectFrom('transactions')
    .select('id')
    .where(sql<string>`substr(checkout_request_id, 1, ${masked.length + 1})`, '=', `${masked}/`)
    .executeTakeFirst();
  return alike ? undefined : holder;
}

/**
 * Records Daraja's identifiers for a transaction that has none yet (or has these): a callback
 * matched to it by phone and amount may have attached them first, from this instance or another.
 * The acknowledgement's text is kept only while the transaction is still pending: a callback that
 * raced ahead of the acknowledgement has the last word. Returns whether the ids are the row's now.
 */
export async function attachDarajaIds(
  db: Db,
  id: string,
  ids: { merchantRequestId: string; checkoutRequestId: string },
  acknowledgement?: { responseDescription: string; customerMessage: string; at: string },
): Promise<boolean> {
  const result = await attachIdsQuery(db, id, ids, acknowledgement).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** `attachDarajaIds`'s statement, for the payment path's writes (payment-writes.ts). */
export function attachIdsQuery(
  db: Db,
  id: string,
  ids: { merchantRequestId: string; checkoutRequestId: string },
  acknowledgement?: { responseDescription: string; customerMessage: string; at: string },
) {
  const whilePending = <T>(value: T, column: 'response_description' | 'customer_message') =>
    sql<T>`case when status = 'pending' then ${value} else ${sql.ref(column)} end`;
  return db
    .updateTable('transactions')
    .set({
      merchant_request_id: ids.merchantRequestId,
      checkout_request_id: ids.checkoutRequestId,
      ...(acknowledgement
        ? {
            response_description: whilePending(
              acknowledgement.responseDescription,
              'response_description',
            ),
            customer_message: whilePending(acknowledgement.customerMessage, 'customer_message'),
            updated_at: acknowledgement.at,
          }
        : {}),
    })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('checkout_request_id', 'is', null),
        eb('checkout_request_id', '=', ids.checkoutRequestId),
      ]),
    );
}

/**
 * Transactions whose push got no acknowledgement (so no CheckoutRequestID) that a success callback
 * with this phone and amount may belong to, created since `since`: at most two, newest first, since
 * more than one means the callback cannot be matched safely. On PostgreSQL the rows are locked (in
 * one order, so two callbacks cannot deadlock on them) and read as they are once the lock is had:
 * reconciliation giving up on one meanwhile is seen.
 */
export async function findUnacknowledgedPayments(
  db: Db,
  phoneNumber: string,
  amount: number,
  since: string,
  lock: DialectName | false = false,
): Promise<TransactionRow[]> {
  return (
    db
      .selectFrom('transactions')
      .selectAll()
      .where('checkout_request_id', 'is', null)
      .where('phone_number', '=', phoneNumber)
      .where('amount', '=', amount)
      // `timeout` is where reconciliation left such payments before `unknown` existed.
      .where('status', 'in', ['pending', 'unknown', 'timeout'])
      .where('created_at', '>=', since)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(2)
      .$if(lock === 'postgres', (query) => query.forUpdate())
      .execute()
  );
}

/** Whether this exact callback body was already recorded for the transaction (a redelivery). */
export async function hasCallback(
  db: Db,
  transactionId: string,
  checkoutRequestId: string,
  rawBody: string,
): Promise<boolean> {
  const found = await db
    .selectFrom('callbacks')
    .select('id')
    .where('checkout_request_id', '=', checkoutRequestId)
    .where('transaction_id', '=', transactionId)
    .where('raw_body', '=', rawBody)
    // Every redelivery is recorded too: the first one found answers, however many came.
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/**
 * Where a transaction's current status came from: the source of the last event that moved it
 * there, or of a person's review that kept it (null if none did).
 */
export async function sourceOfStatus(
  db: Db,
  id: string,
  status: TransactionRow['status'],
): Promise<NewTransactionEventRow['source'] | null> {
  const event = await db
    .selectFrom('transaction_events')
    .select('source')
    .where('transaction_id', '=', id)
    .where('to_status', '=', status)
    .where((eb) =>
      eb.or([
        eb('from_status', 'is', null),
        eb('from_status', '<>', status),
        eb('source', '=', 'review'),
      ]),
    )
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return event?.source ?? null;
}

/** Payments waiting for a person: flagged, or with an unknown outcome; oldest first. */
export async function listForReview(db: Db): Promise<TransactionRow[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where((eb) => eb.or([eb('flagged_reason', 'is not', null), eb('status', '=', 'unknown')]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Clears a payment's flag and sets the status a reviewer chose, only while the payment is as the
 * reviewer saw it (same status, same flag). Returns whether it was.
 */
export async function settleReview(
  db: Db,
  seen: Pick<TransactionRow, 'id' | 'status' | 'flagged_reason'>,
  patch: Pick<TransactionPatch, 'status' | 'updated_at'>,
): Promise<boolean> {
  const result = await db
    .updateTable('transactions')
    .set({ ...patch, flagged_reason: null })
    .where('id', '=', seen.id)
    .where('status', '=', seen.status)
    .where((eb) =>
      seen.flagged_reason === null
        ? eb('flagged_reason', 'is', null)
        : eb('flagged_reason', '=', seen.flagged_reason),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
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

/**
 * The callbacks about a payment, oldest first, as they came (the merchant's view of the payment
 * shows them): a prompt's by its CheckoutRequestID (none before it has one); a till or paybill
 * payment's, which has none, by the payment they were applied to (its confirmation, a receipt
 * check's Result). Bounded: a payment hears from M-PESA a few times.
 */
export async function listCallbacksFor(
  db: Db,
  row: Pick<TransactionRow, 'id' | 'checkout_request_id' | 'channel'>,
) {
  const prompt = row.channel === 'prompt';
  if (prompt && row.checkout_request_id === null) return [];
  return db
    .selectFrom('callbacks')
    .select(['received_at', 'outcome', 'raw_body'])
    .$if(prompt, (query) => query.where('checkout_request_id', '=', row.checkout_request_id))
    .$if(!prompt, (query) => query.where('transaction_id', '=', row.id))
    .orderBy('received_at')
    .orderBy('id')
    .limit(20)
    .execute();
}

export async function insertCallback(db: Db, row: NewCallbackRow): Promise<void> {
  await db.insertInto('callbacks').values(row).execute();
}

/** Records what became of a callback kept as `received`. */
export async function settleCallback(
  db: Db,
  id: string,
  settled: { transactionId: string | null; outcome: CallbackOutcome },
): Promise<void> {
  await db
    .updateTable('callbacks')
    .set({ transaction_id: settled.transactionId, outcome: settled.outcome })
    .where('id', '=', id)
    .execute();
}

/** The payment's refund, if one was ever asked for (one per payment). */
export async function findRefundOf(db: Db, transactionId: string): Promise<RefundRow | undefined> {
  if (!isOwnId(transactionId)) return undefined;
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
}
