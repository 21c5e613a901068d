/**
 * Who may do what on every merchant route with HISTORY_ACCESS=operators, on each database: one
 * row per route (access-matrix.table.ts), the same refusals asked of each
 * (docs/decisions/003-operator-sessions.md). A new route is one more row in that table.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import {
  SESSION_LIMITS,
  signedInWorld,
  type Browser,
  type SignedInWorld,
} from '../../test/signed-in.ts';
import { OPERATOR_ROLES, type OperatorRole } from './roles.ts';
import { ROUTES, type RouteCase } from '../../test/access-matrix.table.ts';

const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

/** The roles below `role`, lowest first. */
const below = (role: OperatorRole): OperatorRole[] =>
  OPERATOR_ROLES.slice(0, OPERATOR_ROLES.indexOf(role));

/** A refusal in our shape, with this status and code. */
function expectRefused(answer: LightMyRequestResponse, status: number, code: string) {
  expect(answer.statusCode, answer.body).toBe(status);
  const body = answer.json() as Record<string, unknown>;
  expect(body).toMatchObject({ success: false, code });
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'success']);
  expect(typeof body.message).toBe('string');
}

for (const dialect of DIALECTS) {
  describe(`who may do what (${dialect})`, () => {
    let database: TestDatabase;
    let world: SignedInWorld;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      world = await signedInWorld(database);
    });
    afterAll(async () => {
      await world.close();
      await database.destroy();
    });

    /** Sends `route`'s request, as `browser` (with its CSRF token when `csrf`) or with a key. */
    async function send(
      route: RouteCase,
      as: {
        browser?: Browser;
        csrf?: boolean;
        key?: string;
        headers?: Record<string, string>;
      } = {},
    ) {
      const headers: Record<string, string> = { ...as.headers };
      if (as.browser) headers.cookie = as.browser.cookie;
      if (as.browser && (as.csrf ?? true)) headers['x-csrf-token'] = as.browser.csrfToken;
      if (as.key !== undefined) headers.authorization = `Bearer ${as.key}`;
      const options: InjectOptions = {
        method: route.method,
        url: await route.url(database),
        headers,
        ...(route.payload ? { payload: route.payload() } : {}),
      };
      return world.app.inject(options);
    }

    /** A session gone stale: unused past the idle expiry, or used but past the absolute one. */
    async function staleSession(role: OperatorRole, how: 'idle' | 'absolute') {
      const browser = await world.signIn(role);
      if (how === 'idle') {
        world.advance(SESSION_LIMITS.idleMs + 1000);
        return browser;
      }
      // Used every 25 minutes, so never idle, until its absolute expiry has passed.
      const ends = world.clock.now.getTime() + SESSION_LIMITS.maxMs;
      const step = SESSION_LIMITS.idleMs - 5 * 60_000;
      while (world.clock.now.getTime() + step < ends) {
        world.advance(step);
        const me = await world.app.inject({
          url: '/api/auth/me',
          headers: { cookie: browser.cookie },
        });
        expect(me.statusCode).toBe(200);
      }
      world.advance(ends - world.clock.now.getTime() + 1000);
      return browser;
    }

    for (const route of ROUTES) {
      describe(route.name, () => {
        const allowedRole = route.access.role;
        const lower = below(allowedRole);
        const roles = [...new Set<OperatorRole>([allowedRole, 'owner'])];
        /** Whose stale or signed-out session is tried: on a payer's route, one that would be refused. */
        const staleRole = route.openToPayers ? (lower[0] ?? allowedRole) : allowedRole;
        /** What a request without a usable credential gets. */
        const expectNoCredential = (answer: LightMyRequestResponse) => {
          if (route.openToPayers) expect(answer.statusCode, answer.body).toBe(route.ok);
          else expectRefused(answer, 401, 'UNAUTHENTICATED');
        };

        it(
          route.openToPayers ? 'lets a stranger (a payer) through' : 'refuses a stranger 401',
          async () => {
            expectNoCredential(await send(route));
          },
        );

        for (const role of lower) {
          it(`refuses a ${role} 403`, async () => {
            expectRefused(
              await send(route, { browser: await world.signIn(role) }),
              403,
              'ROLE_NOT_ALLOWED',
            );
          });
        }

        it('refuses a session’s request sent by a page on another site', async () => {
          const browser = await world.signIn(allowedRole);
          expectRefused(
            await send(route, { browser, headers: CROSS_SITE }),
            403,
            'CROSS_SITE_REQUEST',
          );
        });

        if (route.csrf) {
          it('refuses a session’s request without the CSRF token', async () => {
            const browser = await world.signIn(allowedRole);
            expectRefused(await send(route, { browser, csrf: false }), 403, 'CSRF_TOKEN_INVALID');
          });
        }

        for (const how of ['idle', 'absolute'] as const) {
          it(`takes a session past its ${how} expiry for no credential`, async () => {
            const browser = await staleSession(staleRole, how);
            expectNoCredential(await send(route, { browser }));
          });
        }

        it('takes a signed-out session for no credential', async () => {
          const browser = await world.signIn(staleRole);
          expect((await world.signOut(browser)).statusCode).toBe(200);
          expectNoCredential(await send(route, { browser }));
        });

        it('refuses a revoked key 401, and a made-up one alike', async () => {
          for (const key of [world.keys.revoked, 'mpk_made-up', 'not-a-key']) {
            const answer = await send(route, { key });
            expectRefused(answer, 401, 'UNAUTHENTICATED');
            expect(answer.json().message).toBe(
              'This API key is not valid. Ask an owner for a new one.',
            );
          }
        });

        it('refuses a key of another scope 403', async () => {
          const other =
            route.access.scope === 'payments:read' ? 'payments:request' : 'payments:read';
          expectRefused(await send(route, { key: world.keys[other] }), 403, 'SCOPE_NOT_ALLOWED');
        });

        it(`lets ${roles.map((role) => `a ${role}`).join(' and ')} through`, async () => {
          for (const role of roles) {
            const answer = await send(route, { browser: await world.signIn(role) });
            expect(answer.statusCode, answer.body).toBe(route.ok);
          }
        });

        const scope = route.access.scope;
        if (scope) {
          it(`lets a key with ${scope} through, with no CSRF token`, async () => {
            const answer = await send(route, { key: world.keys[scope] });
            expect(answer.statusCode, answer.body).toBe(route.ok);
          });
        }
      });
    }
  });
}
