/**
 * PostgreSQL only: writes on a payment's hot paths that the generic code makes in several
 * statements, each made here in one (data-modifying `with` queries, which SQLite does not have).
 * On PostgreSQL every statement is a round trip to another process and the driver's work, most of
 * what a payment and a callback cost (docs/performance.md); on SQLite a statement is a function
 * call, and the generic code is kept. Each does exactly what the generic code does, in the same
 * transaction, and the tests run both.
 */
import { sql, type Kysely } from 'kysely';
import type {
  Database,
  NewTransactionEventRow,
  NewTransactionRow,
  TransactionPatch,
  TransactionRow,
} from '../../db/schema.ts';
import type { countHitQuery } from '../../limits/rate-limit.repository.ts';
import type { keyUsedQuery } from './idempotency.ts';
import type { phoneLockQuery } from './phone-locks.repository.ts';
import type { attachIdsQuery } from './transactions.repository.ts';

type Db = Kysely<Database>;

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

/**
 * transaction-outcome.ts `transition`: moves the payment from `from` with `patch` and records
 * `event`, only while it still has `from`. Says whether it moved, and whether any webhook endpoint
 * is enabled (read in the same statement, so in the same transaction as the change).
 */
export async function moveRecorded(
  db: Db,
  row: Pick<TransactionRow, 'id' | 'status'>,
  patch: TransactionPatch,
  event: NewTransactionEventRow,
): Promise<{ moved: boolean; endpoints: boolean }> {
  const answer = await db
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
    ])
    .executeTakeFirstOrThrow();
  return { moved: Boolean(answer.moved), endpoints: Boolean(answer.endpoints) };
}

/**
 * push-answers.ts `recordAcknowledgement` when the ids are attached (the usual case): Daraja's ids
 * and texts on the payment, its `accepted` event, and the phone held for the cooldown, in one
 * statement. Changes nothing and says false when another's ids are attached already: the caller
 * then takes the generic way, which flags the payment.
 */
export async function acknowledged(
  db: Db,
  attach: ReturnType<typeof attachIdsQuery>,
  event: NewTransactionEventRow,
  hold: { phoneNumber: string; until: string },
): Promise<boolean> {
  const answer = await db
    .with('attached', () => attach.returning('id'))
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
        .where('transaction_id', '=', event.transaction_id)
        .where((eb) => eb.exists(eb.selectFrom('attached').select('attached.id')))
        .returning('phone_number'),
    )
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('attached').select('attached.id')).as('attached'),
    ])
    .executeTakeFirstOrThrow();
  return Boolean(answer.attached);
}

/** What transactions.service.ts saves before a push, each part as its own statement would be. */
export interface PaymentToSave {
  /** The per-address count (rate-limit.repository.ts `countHitQuery`), if there is a limit. */
  hit?: ReturnType<typeof countHitQuery> | undefined;
  payment: NewTransactionRow;
  /** The phone's lock (phone-locks.repository.ts `phoneLockQuery`). */
  lock: ReturnType<typeof phoneLockQuery>;
  event: NewTransactionEventRow;
  /** The Idempotency-Key told the payment's id (idempotency.ts `keyUsedQuery`), if there is one. */
  key?: ReturnType<typeof keyUsedQuery> | undefined;
}

/**
 * transactions.service.ts `savePending` and what goes with it, in one statement: the address's
 * count, the payment, the phone's lock, the `saved` event and the key. Its caller's transaction
 * refuses (and so rolls back) a count over the limit or a lock not had, as the generic code does.
 * Says the count (null without a limit) and whether the lock was had.
 */
export async function savedAtOnce(
  trx: Db,
  save: PaymentToSave,
): Promise<{ hits: number | null; locked: boolean }> {
  const parts = [
    save.hit && sql`hit as (${save.hit})`,
    sql`saved as (${trx.insertInto('transactions').values(save.payment).returning('id')})`,
    sql`locked as (${save.lock.returning('phone_number')})`,
    sql`recorded as (${trx.insertInto('transaction_events').values(save.event).returning('id')})`,
    save.key && sql`keyed as (${save.key.returning('key')})`,
  ].filter((part) => part !== undefined);
  const hits = save.hit ? sql`(select hits from hit)` : sql`null`;
  const { rows } = await sql<{ hits: number | null; locked: boolean }>`
    with ${sql.join(parts)}
    select ${hits} as hits, exists (select 1 from locked) as locked`.execute(trx);
  const answer = rows[0]!;
  return { hits: answer.hits === null ? null : Number(answer.hits), locked: answer.locked };
}
