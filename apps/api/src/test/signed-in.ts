/**
 * A world for testing who may do what with HISTORY_ACCESS=operators: the app on a test database,
 * on a clock the test moves, with an operator of each role, API keys of each scope (and a revoked
 * one), one stored payment, and a Daraja that accepts every push. Sessions are opened as a browser
 * would (sign-in, then a CSRF token beside the cookie).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ApiKeyScope } from '@mpesa/shared/contract-admin';
import type { DarajaClient } from '../daraja/daraja-client.ts';
import { createKey, revokeKey } from '../features/operators/keys/keys.service.ts';
import { addOperator } from '../features/operators/operators.service.ts';
import type { OperatorRole } from '../features/operators/roles.ts';
import { createTestApp, TEST_PASSWORD_HASH_COST } from './test-app.ts';
import type { TestDatabase } from './test-db.ts';
import { storedPayment } from './stored-payment.ts';

export const PASSWORD = 'correct horse battery';
/** An operator of each role, by role. */
export const OPERATOR_NAMES = { owner: 'Amina', cashier: 'Baraka', viewer: 'Otieno' } as const;
/** Idle and absolute expiry of the world's sessions (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS). */
export const SESSION_LIMITS = { idleMs: 30 * 60_000, maxMs: 60 * 60_000 };
/** The stored payment the world's routes can read. */
export const PAYMENT_ID = 'tx-1';

/** The operator named `name` as a key's maker: `createKey`'s `createdBy` and `createdById`. */
export async function keyMaker(database: TestDatabase, name: string) {
  const row = await database.db
    .selectFrom('operators')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return { createdBy: name, createdById: row.id };
}

/** A Daraja that acknowledges every push. */
export function acceptingDaraja(): DarajaClient {
  let pushes = 0;
  return {
    stkPush: async () => {
      pushes++;
      return {
        merchantRequestId: `m-${pushes}`,
        checkoutRequestId: `ws_CO_world_${pushes}`,
        responseCode: '0',
        responseDescription: 'Success. Request accepted for processing',
        customerMessage: 'Success. Request accepted for processing',
      };
    },
    stkQuery: async () => ({ state: 'pending', message: '' }),
  };
}

/** A browser signed in: its cookies and the CSRF token it sends with each change. */
export interface Browser {
  cookie: string;
  csrfToken: string;
}

export interface SignedInWorld {
  app: FastifyInstance;
  /** Now, for the app. */
  clock: { now: Date };
  advance(ms: number): void;
  /** A key of each scope, and one revoked, as sent. */
  keys: Record<ApiKeyScope | 'revoked', string>;
  signIn(role: OperatorRole): Promise<Browser>;
  signOut(browser: Browser): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

function cookieOf(answer: LightMyRequestResponse, name: string): string {
  const cookie = answer.cookies.find((each) => each.name === name);
  if (!cookie) throw new Error(`no ${name} cookie in the answer`);
  return `${name}=${cookie.value}`;
}

export async function signedInWorld(
  database: TestDatabase,
  env: Record<string, string> = {},
): Promise<SignedInWorld> {
  const clock = { now: new Date('2026-11-25T09:00:00.000Z') };
  const now = () => clock.now;
  const ids: Partial<Record<OperatorRole, string>> = {};
  for (const [role, name] of Object.entries(OPERATOR_NAMES)) {
    const added = await addOperator(database.db, {
      name,
      role: role as OperatorRole,
      password: PASSWORD,
      now: clock.now,
      passwordHashCost: TEST_PASSWORD_HASH_COST,
    });
    ids[added.role] = added.id;
  }
  await database.db
    .insertInto('transactions')
    .values(storedPayment(PAYMENT_ID, '2026-11-25T08:00:00.000Z'))
    .execute();
  const make = (scope: ApiKeyScope) =>
    createKey(database.db, {
      name: `${scope} key`,
      scope,
      createdBy: OPERATOR_NAMES.owner,
      createdById: ids.owner!,
      now: clock.now,
    });
  const read = await make('payments:read');
  const request = await make('payments:request');
  const webhooks = await make('webhooks:manage');
  const revoked = await make('payments:read');
  await revokeKey(database.db, revoked.key.id, clock.now, OPERATOR_NAMES.owner);

  const { app } = await createTestApp({
    database,
    daraja: acceptingDaraja(),
    now,
    env: {
      HISTORY_ACCESS: 'operators',
      SESSION_IDLE_MINUTES: String(SESSION_LIMITS.idleMs / 60_000),
      SESSION_MAX_HOURS: String(SESSION_LIMITS.maxMs / 3_600_000),
      // Every payment request in the tests goes through: the limits have tests of their own.
      STKPUSH_RATE_LIMIT: '0',
      PHONE_COOLDOWN_S: '0',
      ...env,
    },
  });

  async function signIn(role: OperatorRole): Promise<Browser> {
    const answer = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { name: OPERATOR_NAMES[role], password: PASSWORD },
    });
    if (answer.statusCode !== 200) throw new Error(`sign-in failed: ${answer.body}`);
    const session = cookieOf(answer, 'mpesa_session');
    const csrf = await app.inject({ url: '/api/auth/csrf', headers: { cookie: session } });
    const csrfToken = (csrf.json() as { data: { token: string } }).data.token;
    return { cookie: `${session}; ${cookieOf(csrf, 'mpesa_csrf')}`, csrfToken };
  }

  return {
    app,
    clock,
    advance: (ms) => {
      clock.now = new Date(clock.now.getTime() + ms);
    },
    keys: {
      'payments:read': read.secret,
      'payments:request': request.secret,
      'webhooks:manage': webhooks.secret,
      revoked: revoked.secret,
    },
    signIn,
    signOut: (browser) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/sign-out',
        headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken },
      }),
    close: () => app.close(),
  };
}
