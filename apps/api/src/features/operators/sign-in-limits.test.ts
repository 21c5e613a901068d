/**
 * Sign-in limits that slow guessing without locking the owner out (docs/decisions/005): sliding
 * windows with no burst across a boundary, a name guessed at from many addresses bound while an
 * address its operator signed in from is still let in, and a parallel burst bounded. On each
 * database, through the service (the bound is set low, so that few passwords are hashed).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_PASSWORD_HASH_COST } from '../../test/test-app.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { addOperator } from './operators.service.ts';
import { signIn, type SessionDeps } from './sessions.service.ts';

const PASSWORD = 'correct horse battery';
const WINDOW_S = 900;

for (const dialect of DIALECTS) {
  describe(`sign-in limits (${dialect})`, () => {
    let database: TestDatabase;
    let deps: SessionDeps;
    let now: Date;

    beforeEach(async () => {
      // One second before a 15-minute boundary (09:15).
      now = new Date('2026-11-25T09:14:59.000Z');
      database = await createTestDatabase(dialect);
      deps = {
        db: database.db,
        now: () => now,
        sessions: {
          idleMs: 30 * 60_000,
          maxMs: 12 * 3_600_000,
          signInLimit: {
            perNameAndAddress: 5,
            perAddress: 20,
            windowS: WINDOW_S,
            perName: 10,
            nameWindowS: 3600,
          },
          passwordHashCost: TEST_PASSWORD_HASH_COST,
        },
      };
      await addOperator(database.db, {
        name: 'Amina',
        role: 'owner',
        password: PASSWORD,
        now,
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      });
    });
    afterEach(async () => {
      await database.destroy();
    });

    /** The answer's status: 200, or the error's. */
    const attempt = (password: string, addressKey: string) =>
      signIn(deps, { name: 'Amina', password, addressKey, address: addressKey }).then(
        () => 200,
        (error: { statusCode?: number }) => error.statusCode ?? 500,
      );

    it('refuses a burst across a fixed-window boundary past the limit', async () => {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) codes.push(await attempt(`wrong ${i}`, '198.51.100.1'));
      now = new Date('2026-11-25T09:15:01.000Z');
      for (let i = 0; i < 5; i++) codes.push(await attempt(`wrong again ${i}`, '198.51.100.1'));
      // Fixed windows let 10 through in 2 s; the sliding window holds them to 5.
      expect(codes).toEqual([...Array(5).fill(401), ...Array(5).fill(429)]);
    });

    it('bounds guesses from many addresses for one name, and then lets in only where the operator signed in before', async () => {
      // The owner signed in from home once.
      expect(await attempt(PASSWORD, '192.0.2.10')).toBe(200);
      const codes: number[] = [];
      for (let i = 0; i < 200; i++) {
        codes.push(await attempt(`guess ${i}`, `198.51.${Math.floor(i / 250)}.${i % 250}`));
      }
      expect(codes.filter((code) => code === 401)).toHaveLength(10);
      expect(codes.filter((code) => code === 429)).toHaveLength(190);
      // From a new address even the right password waits; from home it is let in.
      expect(await attempt(PASSWORD, '203.0.113.50')).toBe(429);
      const home = await signIn(deps, {
        name: 'Amina',
        password: PASSWORD,
        addressKey: '192.0.2.10',
      });
      expect(home.failedSignIns).toBe(10);
    });

    it('checks no more passwords than the bound when guesses from many addresses come at once', async () => {
      const codes = await Promise.all(
        Array.from({ length: 60 }, (_, i) => attempt(`guess ${i}`, `198.51.100.${i}`)),
      );
      expect(codes.filter((code) => code === 401)).toHaveLength(10);
      expect(codes.filter((code) => code === 429)).toHaveLength(50);
    });
  });
}
