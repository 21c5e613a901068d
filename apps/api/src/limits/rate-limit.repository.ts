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
export function storableKey(key: string): string {
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
  const row = await countHitQuery(db, storableKey(key), windowIndex).executeTakeFirstOrThrow();
  return Number(row.hits);
}

/**
 * `countHit`'s statement, for a key already made storable (`storableKey`): for the payment path's
 * writes, which compile it once (features/payments/payment-writes.ts).
 */
export function countHitQuery(db: Kysely<Database>, storedKey: string, windowIndex: number) {
  return db
    .insertInto('rate_limits')
    .values({ key: storedKey, window_index: windowIndex, hits: 1 })
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

/** A counter over a sliding window: `key`'s count as its window reads it at `atMs`. */
export interface SlidingCount {
  /** This fixed window's hits, this one's included. */
  hits: number;
  /** The previous fixed window's hits. */
  previous: number;
  /** The previous window's hits weighted by how much of it the sliding window still covers, plus this one's. */
  estimate: number;
  windowIndex: number;
}

/**
 * Two fixed windows' counters, kept under `key#0` and `key#1` by the parity of their index, so
 * that the previous window's count is still there while the current one counts.
 */
const slidingKey = (key: string, windowIndex: number) => `${key}#${windowIndex % 2}`;

/**
 * Counts one hit for `key` in a sliding window of `windowMs` (the "sliding window counter"): the
 * current fixed window's count, in one atomic statement as `countHit`'s, plus the previous
 * window's weighted by the share of it that still falls inside the window ending now. A burst
 * across a boundary is then held to the limit, not twice it, and nothing is kept per attempt.
 */
export async function countSlidingHit(
  db: Kysely<Database>,
  key: string,
  atMs: number,
  windowMs: number,
): Promise<SlidingCount> {
  const windowIndex = Math.floor(atMs / windowMs);
  const hits = await countHit(db, slidingKey(key, windowIndex), windowIndex);
  const row = await db
    .selectFrom('rate_limits')
    .select('hits')
    .where('key', '=', storableKey(slidingKey(key, windowIndex - 1)))
    .where('window_index', '=', windowIndex - 1)
    .executeTakeFirst();
  const previous = Number(row?.hits ?? 0);
  const covered = 1 - (atMs - windowIndex * windowMs) / windowMs;
  return { hits, previous, estimate: previous * covered + hits, windowIndex };
}

/** Takes one hit back off a sliding counter's window `windowIndex` (`countSlidingHit`'s). */
export async function uncountSlidingHit(
  db: Kysely<Database>,
  key: string,
  windowIndex: number,
): Promise<void> {
  await uncountHit(db, slidingKey(key, windowIndex), windowIndex);
}

/**
 * How long until one more hit would be within `limit` if none came meanwhile: while the previous
 * window's share fades within this window, or else once enough of this window has slid out.
 */
export function slidingRetryAfterMs(
  count: SlidingCount,
  limit: number,
  atMs: number,
  windowMs: number,
): number {
  const start = count.windowIndex * windowMs;
  const room = limit - 1 - count.hits; // what the previous window's share may still be
  const at =
    room >= 0
      ? start + windowMs * (1 - room / Math.max(count.previous, 1))
      : start + windowMs + windowMs * (1 - (limit - 1) / count.hits);
  return Math.max(at - atMs, 0);
}
