/**
 * A sign-in is bound to the password it checked: a password changed, or the operator removed, while
 * it was being checked leaves no session; a session opened with a password since changed is
 * refused. The audit trail says what happened, a limit passed included, and a one-time link's use
 * names the operator it was given to, as a password's would. On each database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_PASSWORD_HASH_COST } from '../../test/test-app.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { addOperator, removeOperator } from './operators.service.ts';
import { issueLink, setPasswordByLink } from './password-links.service.ts';
import { hashPassword } from '../../lib/password.ts';
import {
  hashToken,
  openSession,
  sessionFor,
  signIn,
  verifySignIn,
  type SessionDeps,
} from './sessions.service.ts';

const PASSWORD = 'correct horse battery';
const ADDRESS = '192.0.2.1';

for (const dialect of DIALECTS) {
  describe(`sign-ins racing a password change or a removal (${dialect})`, () => {
    let database: TestDatabase;
    let deps: SessionDeps;
    const now = new Date('2026-11-25T09:00:00.000Z');

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      deps = {
        db: database.db,
        now: () => now,
        sessions: {
          idleMs: 30 * 60_000,
          maxMs: 12 * 3_600_000,
          signInLimit: {
            perNameAndAddress: 3,
            perAddress: 5,
            windowS: 900,
            perName: 100,
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
      await addOperator(database.db, {
        name: 'Otieno',
        role: 'viewer',
        password: PASSWORD,
        now,
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      });
    });
    afterEach(async () => {
      await database.destroy();
    });

    const attempt = { name: 'Otieno', password: PASSWORD, addressKey: ADDRESS, address: ADDRESS };
    const sessions = () => database.db.selectFrom('operator_sessions').selectAll().execute();
    const audit = () =>
      database.db
        .selectFrom('audit_events')
        .select(['action', 'actor_kind', 'actor', 'target', 'detail'])
        .orderBy('id')
        .execute();

    it('opens no session with the old password once a one-time link has set a new one', async () => {
      const verified = await verifySignIn(deps, attempt);
      // The link is used while the old password's scrypt runs.
      const link = await issueLink(database.db, 'Otieno', { now });
      await setPasswordByLink(
        {
          db: database.db,
          now: () => now,
          limit: { perAddress: 20, windowS: 900 },
          passwordHashCost: TEST_PASSWORD_HASH_COST,
        },
        {
          token: link.path.split('#')[1]!,
          password: 'a brand new phrase',
          addressKey: '198.51.100.1',
          address: '198.51.100.1',
        },
      );
      await expect(openSession(deps, verified)).rejects.toMatchObject({
        statusCode: 401,
        code: 'SIGN_IN_FAILED',
      });
      expect(await sessions()).toEqual([]);
      const lines = await audit();
      expect(lines.map((line) => line.action)).toEqual(['password_set', 'sign_in_failed']);
      // The link is the operator's: its holder is taken to be them, as a password's is.
      expect(lines[0]).toEqual({
        action: 'password_set',
        actor_kind: 'operator',
        actor: 'Otieno',
        target: 'Otieno',
        detail: 'by a one-time link',
      });
      expect(lines[1]).toMatchObject({ actor_kind: 'anonymous', actor: 'Otieno' });
    });

    it('answers 401, not 500, when the operator is removed during the sign-in, and says it failed', async () => {
      const verified = await verifySignIn(deps, attempt);
      await removeOperator(database.db, 'Otieno', { now });
      await expect(openSession(deps, verified)).rejects.toMatchObject({
        statusCode: 401,
        code: 'SIGN_IN_FAILED',
      });
      expect(await sessions()).toEqual([]);
      expect((await audit()).map((line) => line.action)).toEqual(['sign_in_failed']);
    });

    it('refuses a session opened with a password that is no longer the operator’s, or unstamped', async () => {
      const { token } = await signIn(deps, attempt);
      expect(await sessionFor(deps, token)).toMatchObject({ name: 'Otieno' });
      // A change that missed the new session (on PostgreSQL it may not yet see it to delete it).
      await database.db
        .updateTable('operators')
        .set({ password_hash: await hashPassword('a brand new phrase', TEST_PASSWORD_HASH_COST) })
        .where('name', '=', 'Otieno')
        .execute();
      expect(await sessionFor(deps, token)).toBeUndefined();

      const other = await signIn(deps, { ...attempt, name: 'Amina' });
      expect(await sessionFor(deps, other.token)).toMatchObject({ name: 'Amina' });
      await database.db
        .updateTable('operator_sessions')
        .set({ password_stamp: null })
        .where('token_hash', '=', hashToken(other.token))
        .execute();
      expect(await sessionFor(deps, other.token)).toBeUndefined();
    });

    it('records one line when a limit is first passed in a window, not one per attempt refused', async () => {
      const wrong = { ...attempt, password: 'not the password' };
      const outcomes: number[] = [];
      const tryOnce = async (name: string) => {
        try {
          await signIn(deps, { ...wrong, name });
          outcomes.push(200);
        } catch (error) {
          outcomes.push((error as { statusCode: number }).statusCode);
        }
      };
      // Otieno's limit from this address (3) is passed by the 4th; the address's (5) by the 6th; then a flood.
      for (let i = 0; i < 4; i += 1) await tryOnce('Otieno');
      for (let i = 0; i < 2; i += 1) await tryOnce(`nobody ${i}`);
      for (let i = 0; i < 10; i += 1) await tryOnce('Otieno');
      expect(outcomes).toEqual([401, 401, 401, 429, 401, ...Array(11).fill(429)]);
      const lines = await audit();
      expect(lines).toHaveLength(6);
      const limits = lines.filter((line) => line.detail !== null);
      expect(limits).toEqual([
        {
          action: 'sign_in_failed',
          actor_kind: 'anonymous',
          actor: 'Otieno',
          target: null,
          detail:
            'too many failed sign-ins for this name from this address: attempts are refused until about 2026-11-25T09:22:30.000Z',
        },
        {
          action: 'sign_in_failed',
          actor_kind: 'anonymous',
          // "nobody" is no operator's name: what was typed is not kept.
          actor: null,
          target: null,
          detail:
            'too many failed sign-ins for this address: attempts are refused until about 2026-11-25T09:20:00.000Z',
        },
      ]);
    });
  });
}
