import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { MAX_LENGTH } from '../db/stored-lengths.ts';
import { countHit, dbRateLimitStore } from './db-rate-limit-store.ts';

for (const dialect of DIALECTS) {
  describe(`the database rate-limit store (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(() => database.destroy());

    const keys = async () =>
      (await database.db.selectFrom('rate_limits').select('key').execute()).map((row) => row.key);

    it('names each route’s counters by its method and path', async () => {
      const Store = dbRateLimitStore(database.db);
      // What @fastify/rate-limit passes: the route's limit settings, the route under routeInfo.
      const store = new Store({}).child({
        routeInfo: { method: 'POST', url: '/api/mpesa/stkpush' },
      } as never);
      const current = await new Promise((resolve, reject) =>
        store.incr(
          '203.0.113.7',
          (error, result) => (error ? reject(error) : resolve(result?.current)),
          60_000,
          10,
        ),
      );
      expect(current).toBe(1);
      expect(await keys()).toEqual(['POST /api/mpesa/stkpush|203.0.113.7']);
    });

    it('keeps a key longer than its column as a digest, and still counts it', async () => {
      const long = `POST /api/mpesa/stkpush|${'x'.repeat(300)}`;
      expect(await countHit(database.db, long, 1)).toBe(1);
      expect(await countHit(database.db, long, 1)).toBe(2);
      const [stored] = await keys();
      expect(stored).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(stored!.length).toBeLessThanOrEqual(MAX_LENGTH.rateLimitKey);
    });
  });
}
