/** Counters of windows that have ended are deleted, a family of keys at a time. On each database. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { countHit, deleteEndedWindows } from './rate-limit.repository.ts';
import { SIGN_IN_LIMIT } from '../features/operators/operators.plugin.ts';
import { signIn } from '../features/operators/sessions.service.ts';
import { TEST_PASSWORD_HASH_COST } from '../test/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`pruning the rate-limit counters (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(() => database.destroy());

    const keys = async () =>
      (await database.db.selectFrom('rate_limits').select('key').orderBy('key').execute()).map(
        (row) => row.key,
      );

    it('deletes only the ended windows of keys with the prefix', async () => {
      await countHit(database.db, 'sign-in|address|203.0.113.1', 5);
      await countHit(database.db, 'sign-in|address|203.0.113.2', 6);
      await countHit(database.db, 'sign-in|name|abc', 7);
      await countHit(database.db, 'POST /api/mpesa/stkpush|203.0.113.1', 1);
      await deleteEndedWindows(database.db, 'sign-in|', 7);
      expect(await keys()).toEqual(['POST /api/mpesa/stkpush|203.0.113.1', 'sign-in|name|abc']);
      // The window still under way keeps counting.
      expect(await countHit(database.db, 'sign-in|name|abc', 7)).toBe(2);
      await expect(deleteEndedWindows(database.db, 'sign_in%', 7)).rejects.toThrow();
    });

    it('is done at each sign-in for the sign-in counters', async () => {
      const windowS = 900;
      let now = new Date('2026-11-25T09:00:00.000Z');
      const deps = {
        db: database.db,
        now: () => now,
        sessions: {
          idleMs: 60_000,
          maxMs: 60_000,
          signInLimit: { ...SIGN_IN_LIMIT, windowS },
          passwordHashCost: TEST_PASSWORD_HASH_COST,
        },
      };
      const attempt = (addressKey: string) =>
        signIn(deps, { name: 'Nobody', password: 'not a password', addressKey }).catch(
          (error: unknown) => error,
        );
      // Each counter keeps two fixed windows (#0, #1 by their parity): the sliding window reads both.
      const counters = async (address: string) =>
        (await keys()).filter((key) => key.startsWith(`sign-in|address|${address}#`));
      await attempt('203.0.113.1');
      expect(await counters('203.0.113.1')).toHaveLength(1);
      now = new Date(now.getTime() + windowS * 1000);
      await attempt('203.0.113.2');
      // The window just ended is still read, as the one before this one.
      expect(await counters('203.0.113.1')).toHaveLength(1);
      now = new Date(now.getTime() + windowS * 1000);
      await attempt('203.0.113.3');
      expect(await counters('203.0.113.1')).toEqual([]);
      expect(await counters('203.0.113.3')).toHaveLength(1);
    });
  });
}
