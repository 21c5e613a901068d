/**
 * The per-address limit's counters, kept in the database so that a limit holds across every API
 * instance sharing it (docs/decisions/002-limits-in-the-database.md). A payment request counts
 * its hit in the same transaction that saves the payment (transactions.service.ts).
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { MAX_LENGTH } from '../lib/stored-lengths.ts';

/** A key longer than its column is kept as its digest, so no key can make the database refuse it. */
function storableKey(key: string): string {
  return key.length <= MAX_LENGTH.rateLimitKey
    ? key
    : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** Counts one hit in the current fixed window for `key` and returns the window's total. */
export async function countHit(
  db: Kysely<Database>,
  key: string,
  windowIndex: number,
): Promise<number> {
  const row = await countHitQuery(db, key, windowIndex).executeTakeFirstOrThrow();
  return Number(row.hits);
}

/** `countHit`'s statement, for a statement that does more (postgres-writes.repository.ts). */
export function countHitQuery(db: Kysely<Database>, key: string, windowIndex: number) {
  return db
    .insertInto('rate_limits')
    .values({ key: storableKey(key), window_index: windowIndex, hits: 1 })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        hits: sql<number>`case when rate_limits.window_index = excluded.window_index then rate_limits.hits + 1 else 1 end`,
        window_index: (eb) => eb.ref('excluded.window_index'),
      }),
    )
    .returning('hits');
}

/** Takes one hit back off `key`'s count in `windowIndex` (a sign-in that succeeded is no failure). */
export async function uncountHit(
  db: Kysely<Database>,
  key: string,
  windowIndex: number,
): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ hits: sql<number>`hits - 1` })
    .where('key', '=', storableKey(key))
    .where('window_index', '=', windowIndex)
    .where('hits', '>', 0)
    .execute();
}

/**
 * Deletes the counters of the keys starting with `prefix` whose window ended before `windowIndex`
 * (all of that prefix's keys count in windows of one length): an address or a name seen once is
 * not kept for ever. The prefix must hold no LIKE wildcard (`%`, `_`).
 */
export async function deleteEndedWindows(
  db: Kysely<Database>,
  prefix: string,
  windowIndex: number,
): Promise<void> {
  if (/[%_\\]/.test(prefix)) throw new Error(`a rate-limit prefix with a wildcard: ${prefix}`);
  await db
    .deleteFrom('rate_limits')
    .where('key', 'like', `${prefix}%`)
    .where('window_index', '<', windowIndex)
    .execute();
}
