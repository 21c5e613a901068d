/**
 * Signing in and out, the session cookie, its expiries, cross-site requests, and the merchant's
 * history behind HISTORY_ACCESS=operators, on each database.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD_HASH_COST } from '../../test/test-app.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { addOperator } from './operators.service.ts';
import { hashToken } from './sessions.service.ts';

const PASSWORD = 'correct horse battery';
const HISTORY = [
  '/api/mpesa/transactions',
  '/api/mpesa/summary',
  '/api/mpesa/transactions/totals?status=success',
  '/api/mpesa/transactions/export',
  '/api/mpesa/transactions/tx-1/events',
];
const FAILED = {
  success: false,
  code: 'SIGN_IN_FAILED',
  message: 'The name or password is not right.',
};

/** The session cookie's value, from a Set-Cookie answer. */
function sessionCookie(answer: LightMyRequestResponse): string {
  const cookie = answer.cookies.find((each) => each.name === 'mpesa_session');
  if (!cookie) throw new Error('no session cookie');
  return `mpesa_session=${cookie.value}`;
}

for (const dialect of DIALECTS) {
  describe(`operators signing in (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let clock: Date;
    const apps: FastifyInstance[] = [];

    async function start(env: Record<string, string> = {}) {
      const built = await createTestApp({
        database,
        env: { HISTORY_ACCESS: 'operators', ...env },
        now: () => clock,
      });
      apps.push(built.app);
      return built.app;
    }

    beforeEach(async () => {
      clock = new Date('2026-11-25T09:00:00.000Z');
      database = await createTestDatabase(dialect);
      await addOperator(database.db, {
        name: 'Amina',
        role: 'owner',
        password: PASSWORD,
        now: clock,
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      });
      await addOperator(database.db, {
        name: 'Otieno',
        role: 'viewer',
        password: PASSWORD,
        now: clock,
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      });
      await database.db
        .insertInto('transactions')
        .values(storedPayment('tx-1', '2026-11-25T08:00:00.000Z'))
        .execute();
      app = await start();
    });
    afterEach(async () => {
      for (const each of apps.splice(0)) await each.close();
      await database.destroy();
    });

    /** A sign-in from `remoteAddress` (by default 203.0.113.9), with these headers. */
    const signIn = (
      name: string,
      password: string,
      { remoteAddress = '203.0.113.9', ...headers }: Record<string, string> = {},
    ) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { name, password },
        remoteAddress,
        headers,
      });

    /** A CSRF token and the cookie that carries its secret. */
    async function csrf(on = app, session?: string) {
      const answer = await on.inject({
        url: '/api/auth/csrf',
        ...(session ? { headers: { cookie: session } } : {}),
      });
      const secret = answer.cookies.find((each) => each.name === 'mpesa_csrf');
      return { token: answer.json().data.token as string, cookie: `mpesa_csrf=${secret?.value}` };
    }

    const signOut = async (cookie: string, on = app) => {
      const { token, cookie: csrfCookie } = await csrf(on, cookie);
      return on.inject({
        method: 'POST',
        url: '/api/auth/sign-out',
        headers: { cookie: `${cookie}; ${csrfCookie}`, 'x-csrf-token': token },
      });
    };

    it('signs in with the right name (in any case) and password, with a strict HttpOnly cookie', async () => {
      const answer = await signIn(' amina ', PASSWORD);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({
        success: true,
        data: { name: 'Amina', role: 'owner', failedAttempts: 0 },
      });
      const [cookie] = answer.cookies;
      expect(cookie).toMatchObject({
        name: 'mpesa_session',
        httpOnly: true,
        sameSite: 'Strict',
        path: '/api',
      });
      expect(cookie?.secure).toBeUndefined();
      expect(cookie?.expires?.toISOString()).toBe('2026-11-25T21:00:00.000Z');
      expect(answer.headers['cache-control']).toBe('no-store');
      // Only the token's hash is stored.
      const stored = await database.db.selectFrom('operator_sessions').selectAll().execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]?.token_hash).toBe(hashToken(cookie!.value));

      const me = await app.inject({
        url: '/api/auth/me',
        headers: { cookie: sessionCookie(answer) },
      });
      expect(me.json()).toEqual({ success: true, data: { name: 'Amina', role: 'owner' } });
    });

    it('answers a wrong name and a wrong password alike', async () => {
      const wrongPassword = await signIn('Amina', 'not the password at all');
      const wrongName = await signIn('Nobody', PASSWORD);
      // No operator can have it, and PostgreSQL text refuses a NUL outright: never a 500.
      const impossibleName = await signIn('Am\u0000ina', PASSWORD);
      for (const answer of [wrongPassword, wrongName, impossibleName]) {
        expect(answer.statusCode).toBe(401);
        expect(answer.json()).toEqual(FAILED);
        expect(answer.headers['set-cookie']).toBeUndefined();
      }
    });

    it('sets a Secure __Host- cookie when the API is reached over HTTPS', async () => {
      app = await start({ SESSION_COOKIE_SECURE: 'true' });
      const [cookie] = (await signIn('Amina', PASSWORD)).cookies;
      expect(cookie).toMatchObject({
        name: '__Host-mpesa_session',
        secure: true,
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
      });
    });

    it('refuses guesses for a name past its limit from their address, never the right password from another', async () => {
      const attacker = { remoteAddress: '198.51.100.7' };
      const codes: number[] = [];
      for (let i = 0; i < 30; i++)
        codes.push((await signIn('Amina', `wrong ${i}`, attacker)).statusCode);
      expect(codes).toEqual([...Array(5).fill(401), ...Array(25).fill(429)]);
      // The attacker's address is refused even the right password, saying how long to wait.
      const limited = await signIn('AMINA', PASSWORD, attacker);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ success: false, code: 'TOO_MANY_SIGN_INS' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // The owner, from their own address, signs in at once, and is told of the guesses checked.
      const owner = await signIn('Amina', PASSWORD, { remoteAddress: '192.0.2.44' });
      expect(owner.statusCode).toBe(200);
      expect(owner.json()).toEqual({
        success: true,
        data: { name: 'Amina', role: 'owner', failedAttempts: 5 },
      });
      // Told once: the next sign-in has nothing new to tell.
      const again = await signIn('Amina', PASSWORD, { remoteAddress: '192.0.2.44' });
      expect(again.json().data.failedAttempts).toBe(0);

      // The attacker's limit slides: enough of it has passed 15 minutes on, not all of it at once.
      clock = new Date(clock.getTime() + 15 * 60_000);
      expect((await signIn('Amina', PASSWORD, attacker)).statusCode).toBe(429);
      clock = new Date(clock.getTime() + 15 * 60_000);
      expect((await signIn('Amina', PASSWORD, attacker)).statusCode).toBe(200);
    });

    it('checks no more passwords than the limit when a burst of guesses comes at once', async () => {
      const burst = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          signIn('Amina', `guess number ${i}`, { remoteAddress: '198.51.100.1' }),
        ),
      );
      const codes = burst.map((answer) => answer.statusCode);
      expect(codes.filter((code) => code === 401)).toHaveLength(5);
      expect(codes.filter((code) => code === 429)).toHaveLength(25);
      // What was typed as the name is not kept in the clear: a password typed there would be.
      const keys = await database.db.selectFrom('rate_limits').select('key').execute();
      expect(keys.some((row) => /amina/i.test(row.key))).toBe(false);
    });

    it('takes a successful sign-in off the counts: only failures are limited', async () => {
      for (let i = 0; i < 10; i++) {
        expect((await signIn('Amina', PASSWORD)).statusCode).toBe(200);
      }
      for (let i = 0; i < 5; i++) {
        expect((await signIn('Amina', `wrong password ${i}`)).statusCode).toBe(401);
      }
      expect((await signIn('Amina', PASSWORD)).statusCode).toBe(429);
    });

    it('limits failed sign-ins per address, whatever the names', async () => {
      for (let i = 0; i < 20; i++) {
        expect((await signIn(`guess-${i}`, 'wrong password!')).statusCode).toBe(401);
      }
      const limited = await signIn('Amina', PASSWORD);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect((await signIn('Amina', PASSWORD, { remoteAddress: '192.0.2.1' })).statusCode).toBe(
        200,
      );
    });

    it('refuses a sign-in posted by a page on another site', async () => {
      const crossSite: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
        { origin: 'null' },
        { origin: 'http://localhost:80', 'sec-fetch-site': 'same-site' },
      ];
      for (const headers of crossSite) {
        const answer = await signIn('Amina', PASSWORD, headers);
        expect(answer.statusCode).toBe(403);
        expect(answer.json()).toMatchObject({ success: false, code: 'CROSS_SITE_REQUEST' });
      }
      expect(
        (
          await signIn('Amina', PASSWORD, {
            origin: 'http://localhost:80',
            'sec-fetch-site': 'same-origin',
          })
        ).statusCode,
      ).toBe(200);
    });

    it('signs out only with the CSRF token, revoking the session for every instance', async () => {
      const cookie = sessionCookie(await signIn('Amina', PASSWORD));
      const other = await start();
      const noToken = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-out',
        headers: { cookie },
      });
      expect(noToken.statusCode).toBe(403);
      expect(noToken.json()).toMatchObject({ code: 'CSRF_TOKEN_INVALID' });
      expect((await other.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(
        200,
      );

      const out = await signOut(cookie);
      expect(out.statusCode).toBe(200);
      const row = await database.db
        .selectFrom('operator_sessions')
        .select('revoked_at')
        .executeTakeFirst();
      expect(row?.revoked_at).toBe(clock.toISOString());
      const refused = await other.inject({ url: '/api/auth/me', headers: { cookie } });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
    });

    it('ends a session left idle, and any session past its absolute expiry', async () => {
      const cookie = sessionCookie(await signIn('Amina', PASSWORD));
      const me = () => app.inject({ url: '/api/auth/me', headers: { cookie } });
      const lastSeen = async () =>
        (await database.db.selectFrom('operator_sessions').select('last_seen_at').execute()).map(
          (row) => row.last_seen_at,
        );
      // Not written on every request: at most once a minute.
      clock = new Date(clock.getTime() + 59_000);
      expect((await me()).statusCode).toBe(200);
      expect(await lastSeen()).toEqual(['2026-11-25T09:00:00.000Z']);
      clock = new Date('2026-11-25T09:00:00.000Z');
      // Used every 29 minutes: alive for 11 h 36 min, then past the absolute 12 h.
      for (let step = 0; step < 24; step++) {
        clock = new Date(clock.getTime() + 29 * 60_000);
        expect((await me()).statusCode, `step ${step}`).toBe(200);
      }
      clock = new Date('2026-11-25T21:00:00.000Z');
      expect((await me()).statusCode).toBe(401);

      clock = new Date('2026-11-26T09:00:00.000Z');
      const idle = sessionCookie(await signIn('Amina', PASSWORD));
      clock = new Date(clock.getTime() + 30 * 60_000);
      expect(
        (await app.inject({ url: '/api/auth/me', headers: { cookie: idle } })).statusCode,
      ).toBe(401);
    });

    it('gives a stranger 401 on each history route and a signed-in operator 200; the payer’s page stays open', async () => {
      for (const url of HISTORY) {
        expect((await app.inject({ method: 'HEAD', url })).statusCode, `HEAD ${url}`).toBe(401);
        const answer = await app.inject(url);
        expect(answer.statusCode, url).toBe(401);
        expect(answer.json(), url).toEqual({
          success: false,
          code: 'UNAUTHENTICATED',
          message: 'Sign in to see this. Your session may have ended.',
        });
      }
      const cookie = sessionCookie(await signIn('Amina', PASSWORD));
      for (const url of HISTORY) {
        expect((await app.inject({ url, headers: { cookie } })).statusCode, url).toBe(200);
      }
      const payer = await app.inject('/api/mpesa/transactions/tx-1');
      expect(payer.statusCode).toBe(200);
    });

    it('shows the payer’s own page with the number only as far as its owner recognises it', async () => {
      const checkoutId = 'ws_CO_25112026090000123712000999';
      await database.db
        .insertInto('transactions')
        .values(
          storedPayment('tx-2', '2026-11-25T08:30:00.000Z', { checkout_request_id: checkoutId }),
        )
        .execute();
      const page = (await app.inject('/api/mpesa/transactions/tx-2')).json();
      expect(page.data).toMatchObject({
        phoneNumber: '0712 ••• 999',
        // It ends with the number: even masked, its last four digits told more than the page does.
        checkoutRequestId: null,
        amount: 100,
      });
      expect(JSON.stringify(page)).not.toMatch(/712000999/);
      // With the history open, the page is as the product's requirements show it.
      const open = await start({ HISTORY_ACCESS: 'open' });
      const full = (await open.inject('/api/mpesa/transactions/tx-2')).json();
      expect(full.data).toMatchObject({
        phoneNumber: '254712000999',
        checkoutRequestId: checkoutId,
      });
    });

    it('lets a viewer read the history but not export it: exporting is an owner’s', async () => {
      const cookie = sessionCookie(await signIn('Otieno', PASSWORD));
      for (const url of HISTORY.filter((each) => !each.endsWith('/export'))) {
        expect((await app.inject({ url, headers: { cookie } })).statusCode, url).toBe(200);
      }
      const exported = await app.inject({
        url: '/api/mpesa/transactions/export',
        headers: { cookie },
      });
      expect(exported.statusCode).toBe(403);
      expect(exported.json()).toMatchObject({ success: false, code: 'ROLE_NOT_ALLOWED' });
    });

    it('leaves the history open with HISTORY_ACCESS=open', async () => {
      app = await start({ HISTORY_ACCESS: 'open' });
      for (const url of HISTORY) expect((await app.inject(url)).statusCode, url).toBe(200);
    });

    it('ends the session a browser held before when it signs in again', async () => {
      const first = sessionCookie(await signIn('Amina', PASSWORD));
      const second = await signIn('Otieno', PASSWORD, { cookie: first });
      expect(second.statusCode).toBe(200);
      expect(
        (await app.inject({ url: '/api/auth/me', headers: { cookie: first } })).statusCode,
      ).toBe(401);
      const me = await app.inject({
        url: '/api/auth/me',
        headers: { cookie: sessionCookie(second) },
      });
      expect(me.json()).toEqual({ success: true, data: { name: 'Otieno', role: 'viewer' } });
    });

    it('keeps no ended session: each sign-in deletes the operator’s signed-out and expired ones', async () => {
      const sessionsOf = () =>
        database.db
          .selectFrom('operator_sessions')
          .innerJoin('operators', 'operators.id', 'operator_sessions.operator_id')
          .select(['operator_sessions.revoked_at'])
          .where('operators.name', '=', 'Amina')
          .execute();
      const phone = sessionCookie(await signIn('Amina', PASSWORD));
      for (let round = 0; round < 3; round++) {
        expect((await signOut(sessionCookie(await signIn('Amina', PASSWORD)))).statusCode).toBe(
          200,
        );
      }
      const laptop = sessionCookie(await signIn('Amina', PASSWORD));
      const kept = await sessionsOf();
      expect(kept).toHaveLength(2);
      expect(kept.every((each) => each.revoked_at === null)).toBe(true);
      for (const cookie of [phone, laptop]) {
        expect((await app.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(
          200,
        );
      }
    });

    it('lets any operator sign out, and refuses a stranger', async () => {
      const viewer = sessionCookie(await signIn('Otieno', PASSWORD));
      expect((await signOut(viewer)).statusCode).toBe(200);
      const stranger = await signOut('mpesa_session=made-up');
      expect(stranger.statusCode).toBe(401);
    });
  });
}
