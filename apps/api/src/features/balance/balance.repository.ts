/** The SQL of balance readings and of the day's money beside them. Functions take `db` first. */
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { BalanceReadingRow, BalanceReadingTable, Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

export async function insertReading(db: Db, row: Insertable<BalanceReadingTable>) {
  await db.insertInto('balance_readings').values(row).execute();
}

export async function updateReading(db: Db, id: string, patch: Updateable<BalanceReadingTable>) {
  const result = await db
    .updateTable('balance_readings')
    .set(patch)
    .where('id', '=', id)
    .where('status', '=', 'asked')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findReadingById(db: Db, id: string) {
  return db.selectFrom('balance_readings').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findReadingByConversation(
  db: Db,
  ids: { originatorConversationId: string; conversationId: string },
): Promise<BalanceReadingRow | undefined> {
  return db
    .selectFrom('balance_readings')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('originator_conversation_id', '=', ids.originatorConversationId),
        eb('conversation_id', '=', ids.conversationId),
      ]),
    )
    .executeTakeFirst();
}

/** The reading asked last, whatever became of it. */
export async function newestReading(db: Db): Promise<BalanceReadingRow | undefined> {
  return db
    .selectFrom('balance_readings')
    .selectAll()
    .orderBy('asked_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** The latest reading that came, or failing that the latest asked. */
export async function latestReading(db: Db): Promise<BalanceReadingRow | undefined> {
  const read = await db
    .selectFrom('balance_readings')
    .selectAll()
    .where('status', '=', 'read')
    .orderBy('asked_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return read ?? newestReading(db);
}

/** The readings that came, asked in [from, to), oldest first. */
export async function readingsBetween(db: Db, from: string, to: string) {
  return db
    .selectFrom('balance_readings')
    .selectAll()
    .where('status', '=', 'read')
    .where('asked_at', '>=', from)
    .where('asked_at', '<', to)
    .orderBy('asked_at')
    .orderBy('id')
    .execute();
}

const sum = (value: string | number | null | undefined) => Number(value ?? 0);

/**
 * The money that moved through `shortcode` in [from, to): payments received (prompts paid to it,
 * and till or paybill payments to it), payouts sent (by when they were approved, which is when
 * M-PESA moves the money) with their charges, and refunds that went back.
 */
export async function moneyBetween(
  db: Db,
  shortcode: string,
  promptShortcode: string,
  from: string,
  to: string,
) {
  const received = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.sum<string | number | null>('amount').as('total'))
    .where('status', 'in', ['success', 'refunded'])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where((eb) =>
      shortcode === promptShortcode
        ? eb.or([eb('shortcode', 'is', null), eb('shortcode', '=', shortcode)])
        : eb('shortcode', '=', shortcode),
    )
    .executeTakeFirst();
  const paidOut = await db
    .selectFrom('payouts')
    .select((eb) => [
      eb.fn.sum<string | number | null>('amount').as('total'),
      eb.fn.sum<string | number | null>('charge_cents').as('charges'),
    ])
    .where('status', '=', 'succeeded')
    .where('decided_at', '>=', from)
    .where('decided_at', '<', to)
    .executeTakeFirst();
  const refunded = await db
    .selectFrom('refunds')
    .select((eb) => eb.fn.sum<string | number | null>('amount').as('total'))
    .where('status', '=', 'reversed')
    .where('updated_at', '>=', from)
    .where('updated_at', '<', to)
    .executeTakeFirst();
  return {
    inCents: sum(received?.total) * 100,
    outCents: (sum(paidOut?.total) + sum(refunded?.total)) * 100,
    feeCents: sum(paidOut?.charges),
  };
}
