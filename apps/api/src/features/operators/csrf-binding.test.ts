/**
 * A CSRF token is bound to the session it was asked with. An attack found it was not: a token
 * anyone got with their own session went with a stranger's session too, so that whoever could
 * plant their CSRF cookie in a victim's browser (a subdomain, plain HTTP on the same name) could
 * make the victim's session act. On each database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { signedInWorld, type Browser, type SignedInWorld } from '../../test/signed-in.ts';

/** The browser's session cookie and its CSRF secret's cookie, apart. */
const cookiesOf = (browser: Browser) => {
  const [session, csrfSecret] = browser.cookie.split('; ');
  return { session: session!, csrfSecret: csrfSecret! };
};

for (const dialect of DIALECTS) {
  describe(`a CSRF token (${dialect})`, () => {
    let database: TestDatabase;
    let world: SignedInWorld;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      world = await signedInWorld(database);
    });
    afterEach(async () => {
      await world.close();
      await database.destroy();
    });

    const signOut = (cookie: string, token: string) =>
      world.app.inject({
        method: 'POST',
        url: '/api/auth/sign-out',
        headers: { cookie, 'x-csrf-token': token },
      });

    it('is refused beside another session, even with its own secret cookie', async () => {
      const owner = await world.signIn('owner');
      const attacker = await world.signIn('cashier');
      const planted = `${cookiesOf(owner).session}; ${cookiesOf(attacker).csrfSecret}`;
      const answer = await signOut(planted, attacker.csrfToken);
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ success: false, code: 'CSRF_TOKEN_INVALID' });
      // The owner's session was not touched, and the owner's own token still works.
      expect((await world.signOut(owner)).statusCode).toBe(200);
    });

    it('asked with no session is refused beside a session', async () => {
      const owner = await world.signIn('owner');
      const anonymous = await world.app.inject({
        url: '/api/auth/csrf',
        headers: { cookie: cookiesOf(owner).csrfSecret },
      });
      const token = (anonymous.json() as { data: { token: string } }).data.token;
      const answer = await signOut(owner.cookie, token);
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ code: 'CSRF_TOKEN_INVALID' });
    });

    it('asked with a session that then ended is no good for the next one', async () => {
      const first = await world.signIn('owner');
      expect((await world.signOut(first)).statusCode).toBe(200);
      const second = await world.signIn('owner');
      const stale = `${cookiesOf(second).session}; ${cookiesOf(first).csrfSecret}`;
      expect((await signOut(stale, first.csrfToken)).statusCode).toBe(403);
      expect((await world.signOut(second)).statusCode).toBe(200);
    });
  });
}
