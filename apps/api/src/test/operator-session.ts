/**
 * For tests of the owner's routes: an app with operators on its own database, signing in as each
 * role, and requests sent as a browser on the app's own site sends them (session cookie, CSRF
 * token), or as one on another site.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { addOperator } from '../features/operators/operators.service.ts';
import type { OperatorRole } from '../features/operators/roles.ts';
import { TEST_PASSWORD_HASH_COST } from './test-app.ts';
import type { TestDatabase } from './test-db.ts';

export const PASSWORD = 'correct horse battery';

/** An owner, a cashier and a viewer, each with PASSWORD. */
export const STAFF: Record<OperatorRole, string> = {
  owner: 'Amina',
  cashier: 'Baraka',
  viewer: 'Otieno',
};

export async function addStaff(database: TestDatabase, now: Date): Promise<void> {
  for (const [role, name] of Object.entries(STAFF) as [OperatorRole, string][]) {
    await addOperator(database.db, {
      name,
      role,
      password: PASSWORD,
      now,
      passwordHashCost: TEST_PASSWORD_HASH_COST,
    });
  }
}

/** The session cookie a sign-in as `name` sets, as a Cookie header's part. */
export async function signedIn(
  app: FastifyInstance,
  name: string,
  password = PASSWORD,
): Promise<string> {
  const answer = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-in',
    payload: { name, password },
  });
  const cookie = answer.cookies.find((each) => each.name === 'mpesa_session');
  if (answer.statusCode !== 200 || !cookie) throw new Error(`no session: ${answer.body}`);
  return `mpesa_session=${cookie.value}`;
}

/** A CSRF token, bound to `session` (none: no session), and the cookie that carries its secret. */
export async function csrf(app: FastifyInstance, session?: string) {
  const answer = await app.inject({
    url: '/api/auth/csrf',
    ...(session ? { headers: { cookie: session } } : {}),
  });
  const secret = answer.cookies.find((each) => each.name === 'mpesa_csrf');
  return { token: answer.json().data.token as string, cookie: `mpesa_csrf=${secret?.value}` };
}

export interface Sent {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  payload?: Record<string, unknown>;
}

/**
 * `request` with the session `session` (none when undefined), the CSRF token unless `withCsrf`
 * is false, and `headers` added (an Origin of another site, say).
 */
export async function send(
  app: FastifyInstance,
  request: Sent,
  session: string | undefined,
  { withCsrf = true, headers = {} }: { withCsrf?: boolean; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  const cookies = session === undefined ? [] : [session];
  const extra: Record<string, string> = {};
  if (withCsrf && request.method !== 'GET') {
    const { token, cookie } = await csrf(app, session);
    cookies.push(cookie);
    extra['x-csrf-token'] = token;
  }
  const options: InjectOptions = {
    method: request.method,
    url: request.url,
    headers: { ...(cookies.length ? { cookie: cookies.join('; ') } : {}), ...extra, ...headers },
    ...(request.payload ? { payload: request.payload } : {}),
  };
  return app.inject(options);
}

/**
 * What an owner's route answers a stranger, a viewer, a cashier, a page on another site and a
 * request without the CSRF token (those two only for a change), by who asked: status and code.
 */
export async function refusalsOf(app: FastifyInstance, request: Sent) {
  const answers: Record<string, [number, string]> = {};
  const record = (who: string, answer: LightMyRequestResponse) => {
    answers[who] = [answer.statusCode, answer.json().code];
  };
  record('stranger', await send(app, request, undefined));
  record('viewer', await send(app, request, await signedIn(app, STAFF.viewer)));
  record('cashier', await send(app, request, await signedIn(app, STAFF.cashier)));
  if (request.method !== 'GET') {
    const owner = await signedIn(app, STAFF.owner);
    const headers = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    record('cross-site', await send(app, request, owner, { headers }));
    record('no CSRF token', await send(app, request, owner, { withCsrf: false }));
  }
  return answers;
}

/** What refusalsOf gives for a route that refuses everyone it should. */
export function refusedAll(change: boolean) {
  return {
    stranger: [401, 'UNAUTHENTICATED'],
    viewer: [403, 'ROLE_NOT_ALLOWED'],
    cashier: [403, 'ROLE_NOT_ALLOWED'],
    ...(change
      ? { 'cross-site': [403, 'CROSS_SITE_REQUEST'], 'no CSRF token': [403, 'CSRF_TOKEN_INVALID'] }
      : {}),
  };
}
