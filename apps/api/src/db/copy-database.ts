/**
 * Copies every record from one database to another (typically an SQLite file to PostgreSQL), after
 * bringing both to the latest migration. The target must hold no data yet; the copy is one
 * transaction, so it either completes or leaves the target as it was.
 */
import { migrateToLatest, type DbHandle } from './create-db.ts';

/** Every table that is copied, in dependency order. */
export const TABLES = [
  'payment_links',
  'transactions',
  'transaction_events',
  'callbacks',
  'idempotency_keys',
  'phone_locks',
  'refunds',
  'receipt_checks',
  'operators',
  'api_keys',
  'audit_events',
  'webhook_endpoints',
  'webhook_events',
  'webhook_deliveries',
  'payouts',
  'balance_readings',
] as const;
type CopiedTable = (typeof TABLES)[number];

/**
 * The tables left behind, and why: none holds money or anything the shop set up. A test holds
 * these two lists to every table the migrations make, so a new table cannot be forgotten.
 */
export const NOT_COPIED = {
  rate_limits: 'counters of the last minutes, not worth moving',
  operator_sessions: 'short-lived: the operators sign in again',
  password_links: 'short-lived: an owner makes a new link',
  operator_addresses:
    'where operators signed in, made again as they sign in; it only lets them in past the bound on guesses for their name',
} as const;

const BATCH = 500;

export class CopyError extends Error {
  override name = 'CopyError';
}

export async function copyDatabase(
  from: DbHandle,
  to: DbHandle,
): Promise<Record<CopiedTable, number>> {
  await migrateToLatest(from);
  await migrateToLatest(to);
  const source = from.db;
  const target = to.db;
  for (const table of TABLES) {
    const row = await target
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (Number(row.count) > 0) {
      throw new CopyError(
        `The target already has data in "${table}"; copy only into an empty database.`,
      );
    }
  }
  const counts = Object.fromEntries(TABLES.map((table) => [table, 0])) as Record<
    CopiedTable,
    number
  >;
  await target.transaction().execute(async (trx) => {
    for (const table of TABLES) {
      const key =
        table === 'idempotency_keys' ? 'key' : table === 'phone_locks' ? 'phone_number' : 'id';
      let last: string | undefined;
      for (;;) {
        // Keyset paging: stable and cheap however large the table is.
        const rows = (await source
          .selectFrom(table)
          .selectAll()
          .$if(last !== undefined, (query) => query.where(key as never, '>', last as never))
          .orderBy(key as never)
          .limit(BATCH)
          .execute()) as Array<Record<string, unknown>>;
        if (rows.length === 0) break;
        await trx
          .insertInto(table)
          .values(rows as never)
          .execute();
        counts[table] += rows.length;
        last = String(rows.at(-1)?.[key]);
      }
    }
  });
  return counts;
}
