/**
 * One-time links that set a password: used once, for 24 hours, a newer one voiding the older,
 * ending the operator's sessions; refused cross-site and limited per address. On each database.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { PASSWORD, STAFF, addStaff, send, signedIn } from '../../test/operator-session.ts';
import { SIGN_IN_LIMIT } from './operators.plugin.ts';

const NEW_PASSWORD = 'a brand new phrase';
const INVALID = {
  success: false,
  code: 'PASSWORD_LINK_INVALID',
  message:
    'This link does not work: it may have been used already, replaced by a newer one, or have expired. Ask an owner for a new link.',
};

for (const dialect of DIALECTS) {
  describe(`one-time password links (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let clock: Date;
    let owner: string;

    beforeEach(async () => {
      clock = new Date('2026-11-25T09:00:00.000Z');
      database = await createTestDatabase(dialect);
      await addStaff(database, clock);
      ({ app } = await createTestApp({
        database,
        now: () => clock,
        env: { HISTORY_ACCESS: 'operators' },
      }));
      owner = await signedIn(app, STAFF.owner);
    });
    afterEach(async () => {
      await app.close();
      await database.destroy();
    });

    /** A new link for Otieno, as the owner asks for it: its token. */
    async function linkToken(): Promise<string> {
      const answer = await send(
        app,
        { method: 'POST', url: '/api/operators/otieno/password-link' },
        owner,
      );
      expect(answer.statusCode).toBe(200);
      return answer.json().data.link.path.split('#')[1];
    }
    const use = (token: string, password = NEW_PASSWORD, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        payload: { token, password },
        headers,
        remoteAddress: '203.0.113.7',
      });

    it('keeps the old password until the link is used, then sets the new one and ends every session', async () => {
      const session = await signedIn(app, STAFF.viewer);
      const token = await linkToken();
      // Only the token's hash is stored.
      const [stored] = await database.db.selectFrom('password_links').selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(token);
      await signedIn(app, STAFF.viewer, PASSWORD);

      const answer = await use(token);
      expect(answer.json()).toEqual({ success: true, data: { name: 'Otieno' } });
      expect(answer.headers['cache-control']).toBe('no-store');
      const me = await app.inject({ url: '/api/auth/me', headers: { cookie: session } });
      expect(me.statusCode).toBe(401);
      await expect(signedIn(app, STAFF.viewer, PASSWORD)).rejects.toThrow();
      await signedIn(app, STAFF.viewer, NEW_PASSWORD);
      expect(await database.db.selectFrom('password_links').selectAll().execute()).toEqual([]);
      // Used: the same answer as an unknown token.
      expect((await use(token, 'yet another phrase')).json()).toEqual(INVALID);
      expect((await use('not-a-token-anyone-was-given')).json()).toEqual(INVALID);
    });

    it('is voided by a newer link, and expires after 24 hours', async () => {
      const older = await linkToken();
      const newer = await linkToken();
      expect((await use(older)).json()).toEqual(INVALID);

      clock = new Date(clock.getTime() + 24 * 60 * 60 * 1000);
      const expired = await use(newer);
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toEqual(INVALID);
      await signedIn(app, STAFF.viewer, PASSWORD);
    });

    it('refuses a password outside the rules, saying why, and leaves the link usable', async () => {
      const token = await linkToken();
      const short = await use(token, 'too short');
      expect(short.statusCode).toBe(400);
      expect(short.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        field: 'password',
        message: expect.stringContaining('12 to 256 characters'),
      });
      expect((await use(token)).statusCode).toBe(200);
    });

    it('refuses a link posted by a page on another site', async () => {
      const token = await linkToken();
      const answer = await use(token, NEW_PASSWORD, {
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      });
      expect(answer.statusCode).toBe(403);
      expect(answer.json().code).toBe('CROSS_SITE_REQUEST');
      expect((await use(token)).statusCode).toBe(200);
    });

    it('limits failed attempts per address, as failed sign-ins are', async () => {
      for (let n = 0; n < SIGN_IN_LIMIT.perAddress; n++) {
        expect((await use(`guess-${n}`)).statusCode).toBe(400);
      }
      const token = await linkToken();
      const limited = await use(token);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('TOO_MANY_SIGN_INS');
      clock = new Date(clock.getTime() + SIGN_IN_LIMIT.windowS * 1000);
      expect((await use(token)).statusCode).toBe(200);
    });
  });
}
