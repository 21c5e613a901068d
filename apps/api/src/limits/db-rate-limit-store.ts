/**
 * A store for @fastify/rate-limit that keeps its counters in the database, so that a limit holds
 * across every API instance sharing it (docs/decisions/002-limits-in-the-database.md).
 */
import { createHash } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { MAX_LENGTH } from '../db/stored-lengths.ts';

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
  const row = await db
    .insertInto('rate_limits')
    .values({ key: storableKey(key), window_index: windowIndex, hits: 1 })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        hits: sql<number>`case when rate_limits.window_index = excluded.window_index then rate_limits.hits + 1 else 1 end`,
        window_index: (eb) => eb.ref('excluded.window_index'),
      }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  return Number(row.hits);
}

/**
 * What @fastify/rate-limit passes to `child`: despite its type (the route's options), the route's
 * limit settings, with the route itself under `routeInfo`.
 */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}

export function dbRateLimitStore(db: Kysely<Database>, prefix = ''): FastifyRateLimitStoreCtor {
  return class DbRateLimitStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = Date.now();
      const windowIndex = Math.floor(now / timeWindow);
      countHit(db, `${prefix}${key}`, windowIndex).then(
        (current) => callback(null, { current, ttl: (windowIndex + 1) * timeWindow - now }),
        (error: Error) => callback(error),
      );
    }

    /** Each limited route counts apart: "POST /api/mpesa/stkpush|<client>". */
    child(options: object): FastifyRateLimitStore {
      const { routeInfo = {} } = options as ChildOptions;
      const method = [routeInfo.method ?? ''].flat().join(',');
      const Child = dbRateLimitStore(db, `${prefix}${method} ${routeInfo.url ?? ''}|`);
      return new Child({});
    }
  };
}
