/**
 * The SQL of phone locks: one open prompt per phone, shared by every instance. Functions take
 * `db` or `trx` first.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/**
 * Takes the phone's lock for a new prompt, atomically on both dialects, in the transaction that
 * saves the payment (payment-writes.ts); no row back (`returning`) means the phone is busy. The
 * lock is free once its time is up, unless its transaction is pending with a prompt Daraja
 * acknowledged: that holds the phone until the payer answers. The lock is taken until the push's
 * deadline, and cut back to the cooldown once the push has ended (`holdPhoneUntil`), so that a
 * push that dies with its server holds the phone no longer than it could have been on its way.
 */
export function phoneLockQuery(
  db: Db,
  phoneNumber: string,
  transactionId: string,
  now: string,
  lockedUntil: string,
) {
  return db
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
    );
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
            .where('transaction_events.kind', '=', 'push_unknown'),
        )
        .as('push_outcome_unknown'),
    ])
    .where('phone_locks.phone_number', '=', phoneNumber)
    .executeTakeFirst();
}
