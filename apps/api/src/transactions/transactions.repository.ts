/** All SQL about transactions, their events and raw callbacks. Functions take `db` or `trx` first. */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../db/create-db.ts';
import type {
  Database,
  NewCallbackRow,
  NewTransactionEventRow,
  NewTransactionRow,
  TransactionPatch,
  TransactionRow,
} from '../db/schema.ts';

type Db = Kysely<Database>;

/** How the event recording a push whose outcome is unknown begins. */
export const OUTCOME_UNKNOWN_NOTE = 'outcome unknown: ';

export async function insertTransaction(db: Db, row: NewTransactionRow): Promise<void> {
  await db.insertInto('transactions').values(row).execute();
}

export async function findTransactionById(db: Db, id: string): Promise<TransactionRow | undefined> {
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
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('checkout_request_id', '=', checkoutRequestId)
    .$if(lock === 'postgres', (query) => query.forUpdate())
    .executeTakeFirst();
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
  const whilePending = <T>(value: T, column: 'response_description' | 'customer_message') =>
    sql<T>`case when status = 'pending' then ${value} else ${sql.ref(column)} end`;
  const result = await db
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
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Transactions whose push got no acknowledgement (so no CheckoutRequestID) that a success callback
 * with this phone and amount may belong to, created since `since`: at most two, newest first, since
 * more than one means the callback cannot be matched safely.
 */
export async function findUnacknowledgedPayments(
  db: Db,
  phoneNumber: string,
  amount: number,
  since: string,
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
      .limit(2)
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
    .executeTakeFirst();
  return found !== undefined;
}

/**
 * Takes the phone's lock for a new prompt, atomically on both dialects. The lock is free once its
 * time is up, unless its transaction is pending with a prompt Daraja acknowledged: that holds the
 * phone until the payer answers. The lock is taken until the push's deadline, and cut back to the
 * cooldown once the push has ended (`holdPhoneUntil`), so that a push that dies with its server
 * holds the phone no longer than it could have been on its way.
 */
export async function acquirePhoneLock(
  db: Db,
  phoneNumber: string,
  transactionId: string,
  now: string,
  lockedUntil: string,
): Promise<boolean> {
  const taken = await db
    .insertInto('phone_locks')
    .values({ phone_number: phoneNumber, transaction_id: transactionId, locked_until: lockedUntil })
    .onConflict((conflict) =>
      conflict
        .column('phone_number')
        .doUpdateSet({
          transaction_id: (eb) => eb.ref('excluded.transaction_id'),
          locked_until: (eb) => eb.ref('excluded.locked_until'),
        })
        .where('phone_locks.locked_until', '<=', now)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('transactions')
                .select('transactions.id')
                .whereRef('transactions.id', '=', 'phone_locks.transaction_id')
                .where('transactions.status', '=', 'pending')
                .where('transactions.checkout_request_id', 'is not', null),
            ),
          ),
        ),
    )
    .returning('phone_number')
    .executeTakeFirst();
  return taken !== undefined;
}

/** Sets how long a phone stays held by this transaction's push (the lock may be someone else's by now). */
export async function holdPhoneUntil(
  db: Db,
  phoneNumber: string,
  transactionId: string,
  until: string,
): Promise<void> {
  await db
    .updateTable('phone_locks')
    .set({ locked_until: until })
    .where('phone_number', '=', phoneNumber)
    .where('transaction_id', '=', transactionId)
    .execute();
}

/** The transaction holding a phone's lock, and until when, to tell the payer why it is held. */
export async function findPhoneLockHolder(db: Db, phoneNumber: string) {
  return db
    .selectFrom('phone_locks')
    .innerJoin('transactions', 'transactions.id', 'phone_locks.transaction_id')
    .select((eb) => [
      'phone_locks.locked_until',
      'transactions.status',
      'transactions.checkout_request_id',
      // The push ended without Daraja's answer (rather than still being on its way).
      eb
        .exists(
          eb
            .selectFrom('transaction_events')
            .select('transaction_events.id')
            .whereRef('transaction_events.transaction_id', '=', 'transactions.id')
            .where('transaction_events.note', 'like', `${OUTCOME_UNKNOWN_NOTE}%`),
        )
        .as('push_outcome_unknown'),
    ])
    .where('phone_locks.phone_number', '=', phoneNumber)
    .executeTakeFirst();
}

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

export async function insertCallback(db: Db, row: NewCallbackRow): Promise<void> {
  await db.insertInto('callbacks').values(row).execute();
}
