/**
 * PostgreSQL's form of the hot writes (payment-writes.ts): each made in one statement
 * (data-modifying `with` queries, which SQLite does not have) where the generic code takes several.
 * On PostgreSQL every statement is a round trip to another process and the driver's work, most of
 * what a payment and a callback cost (docs/performance.md); on SQLite a statement is a function
 * call, and sqlite-writes.repository.ts makes them one after another. Each statement is built from
 * the generic code's own queries and compiled once (db/compiled-once.ts); each does exactly what
 * the generic code does, in the same transaction, and the tests run both.
 */
import { sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.ts';
import type { NewTransactionEventRow, TransactionPatch, TransactionRow } from '../../db/schema.ts';
import { countHitQuery, storableKey } from '../../limits/rate-limit.repository.ts';
import { keyUsedQuery } from './idempotency.ts';
import type { Acknowledgement, PaymentToSave, PaymentWrites } from './payment-writes.ts';
import { phoneLockQuery } from './phone-locks.repository.ts';
import { attachIdsQuery } from './transactions.repository.ts';

/** The events table's columns, in the order the statements below give them. */
const EVENT_COLUMNS = [
  'id',
  'transaction_id',
  'at',
  'source',
  'from_status',
  'to_status',
  'kind',
  'reason',
  'note',
  'payload',
] as const;

/** An event row's values as the columns of a `select`, nulls included. */
function eventValues(event: NewTransactionEventRow) {
  return EVENT_COLUMNS.map((column) => sql<string | null>`${event[column] ?? null}`.as(column));
}

/**
 * Whether an enabled webhook endpoint exists, as a column of the statement's answer: with none
 * (most shops), telling of the change costs nothing more (features/payments/payment-events.ts).
 */
const anyEndpoint = sql<boolean>`exists (select 1 from webhook_endpoints where enabled = 1)`;

/** payment-writes.ts `move`: the move, its event, and the look for webhook endpoints. */
const moveStatement = compiledOnce(
  (
    db,
    {
      row,
      patch,
      event,
    }: {
      row: Pick<TransactionRow, 'id' | 'status'>;
      patch: TransactionPatch;
      event: NewTransactionEventRow;
    },
  ) =>
    db
      .with('moved', (qb) =>
        qb
          .updateTable('transactions')
          .set(patch)
          .where('id', '=', row.id)
          .where('status', '=', row.status)
          .returning('id'),
      )
      .with('recorded', (qb) =>
        qb
          .insertInto('transaction_events')
          .columns(EVENT_COLUMNS)
          .expression((eb) => eb.selectFrom('moved').select(eventValues(event)))
          .returning('transaction_events.id'),
      )
      .selectNoFrom((eb) => [
        eb.exists(eb.selectFrom('moved').select('moved.id')).as('moved'),
        anyEndpoint.as('endpoints'),
      ]),
);

/**
 * payment-writes.ts `acknowledge` in one statement, a transaction by itself: Daraja's ids and
 * texts on the payment, its `accepted` event, and the phone held for the cooldown. Changes nothing
 * when another's ids are attached already.
 */
const acknowledgeStatement = compiledOnce((db, { id, ids, texts, event, hold }: Acknowledgement) =>
  db
    .with('attached', () => attachIdsQuery(db, id, ids, texts).returning('id'))
    .with('recorded', (qb) =>
      qb
        .insertInto('transaction_events')
        .columns(EVENT_COLUMNS)
        .expression((eb) => eb.selectFrom('attached').select(eventValues(event)))
        .returning('transaction_events.id'),
    )
    .with('held', (qb) =>
      qb
        .updateTable('phone_locks')
        .set({ locked_until: hold.until })
        .where('phone_number', '=', hold.phoneNumber)
        .where('transaction_id', '=', id)
        .where((eb) => eb.exists(eb.selectFrom('attached').select('attached.id')))
        .returning('phone_number'),
    )
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('attached').select('attached.id')).as('attached'),
    ]),
);

/**
 * payment-writes.ts `savePending` in one statement: the address's count (its key already made
 * storable), the payment, the phone's lock, the `saved` event and the key. Says the count (null
 * without a limit) and whether the lock was had; its caller's transaction refuses (and so rolls
 * back) a count over the limit or a lock not had, as the generic code does.
 */
const saveStatement = compiledOnce(
  (
    trx,
    save: Omit<PaymentToSave, 'hit'> & { hit?: { key: string; windowIndex: number } | undefined },
  ) => {
    const { hit, payment, lock, event, idempotencyKey } = save;
    const parts = [
      hit && sql`hit as (${countHitQuery(trx, hit.key, hit.windowIndex)})`,
      sql`saved as (${trx.insertInto('transactions').values(payment).returning('id')})`,
      sql`locked as (${phoneLockQuery(trx, lock.phoneNumber, payment.id, lock.now, lock.lockedUntil).returning('phone_number')})`,
      sql`recorded as (${trx.insertInto('transaction_events').values(event).returning('id')})`,
      idempotencyKey !== undefined &&
        sql`keyed as (${keyUsedQuery(trx, idempotencyKey, payment.id).returning('key')})`,
    ].filter((part) => part !== undefined && part !== false);
    const hits = hit ? sql`(select hits from hit)` : sql`null`;
    return sql<{ hits: number | string | null; locked: boolean }>`
    with ${sql.join(parts)}
    select ${hits} as hits, exists (select 1 from locked) as locked`;
  },
);

export const postgresWrites: PaymentWrites = {
  async savePending(trx, save) {
    // The limit's bound is the caller's to apply.
    const hit = save.hit && { key: storableKey(save.hit.key), windowIndex: save.hit.windowIndex };
    const { rows } = await trx.executeQuery(saveStatement(trx, { ...save, hit }));
    const answer = rows[0]!;
    return { hits: answer.hits === null ? null : Number(answer.hits), locked: answer.locked };
  },

  async acknowledge(db, { id, ids, texts, event, hold }) {
    const { rows } = await db.executeQuery(
      acknowledgeStatement(db, {
        id,
        ids: { merchantRequestId: ids.merchantRequestId, checkoutRequestId: ids.checkoutRequestId },
        texts: {
          responseDescription: texts.responseDescription,
          customerMessage: texts.customerMessage,
          at: texts.at,
        },
        event,
        hold: { phoneNumber: hold.phoneNumber, until: hold.until },
      }),
    );
    return Boolean(rows[0]!.attached);
  },

  async move(trx, row, patch, event) {
    const { rows } = await trx.executeQuery(
      moveStatement(trx, { row: { id: row.id, status: row.status }, patch, event }),
    );
    const answer = rows[0]!;
    return { moved: Boolean(answer.moved), endpoints: Boolean(answer.endpoints) };
  },
};
