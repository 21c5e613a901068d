import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { MAX_LENGTH } from '../lib/stored-lengths.ts';
import { countHit } from './rate-limit.repository.ts';

for (const dialect of DIALECTS) {
  describe(`the rate-limit counters (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(() => database.destroy());

    const keys = async () =>
      (await database.db.selectFrom('rate_limits').select('key').execute()).map((row) => row.key);

    it('counts hits per key and window, starting again in a new window', async () => {
      const key = 'POST /api/mpesa/stkpush|203.0.113.7';
      expect(await countHit(database.db, key, 7)).toBe(1);
      expect(await countHit(database.db, key, 7)).toBe(2);
      expect(await countHit(database.db, 'POST /api/mpesa/stkpush|203.0.113.8', 7)).toBe(1);
      expect(await countHit(database.db, key, 8)).toBe(1);
      expect((await keys()).sort()).toEqual([key, 'POST /api/mpesa/stkpush|203.0.113.8']);
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
