/**
 * Operators in the app: cookies, the CSRF protection, the sign-in routes, and the gate the
 * merchant's routes take when HISTORY_ACCESS=operators (undefined with `open`: nothing changes).
 */
import fastifyCookie from '@fastify/cookie';
import fastifyCsrfProtection from '@fastify/csrf-protection';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { authRoutes } from './auth.routes.ts';
import { requireOperator, type AuthDeps } from './require-operator.ts';
import { dummyHash } from './password.ts';
import { cookieNames, cookieOptions } from './session-cookie.ts';

/** Failed sign-ins allowed per name and per address, per window (docs/decisions/003). */
export const SIGN_IN_LIMIT = { perName: 5, perAddress: 20, windowS: 15 * 60 } as const;

/** The gates of the merchant's routes: reading the history, and exporting it (an owner's). */
export interface HistoryGuards {
  read: onRequestAsyncHookHandler;
  export: onRequestAsyncHookHandler;
}

/** Registers them under `api` (the `/api` prefix) and returns the history's gates, if any. */
export async function registerOperators(
  api: FastifyInstance,
  { config, db, now }: { config: Config; db: Kysely<Database>; now: () => Date },
): Promise<HistoryGuards | undefined> {
  const { operators } = config;
  const secure = operators.cookieSecure;
  const names = cookieNames(secure);
  await api.register(fastifyCookie);
  await api.register(fastifyCsrfProtection, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: names.csrf,
    cookieOpts: cookieOptions(secure),
    // Only a header: a form on another site can post a body field, never set a header.
    getToken: (request) => {
      const token = request.headers['x-csrf-token'];
      return typeof token === 'string' ? token : undefined;
    },
  });
  const deps: AuthDeps = {
    db,
    now,
    cookieName: names.session,
    sessions: { idleMs: operators.idleMs, maxMs: operators.maxMs, signInLimit: SIGN_IN_LIMIT },
  };
  await api.register(authRoutes, {
    deps,
    secureCookie: secure,
    corsOrigins: config.corsOrigins,
  });
  // Made now, not at the first unknown name's sign-in, which would then take longer than others.
  await dummyHash();
  if (operators.historyAccess !== 'operators') return undefined;
  return { read: requireOperator(deps, 'viewer'), export: requireOperator(deps, 'owner') };
}
