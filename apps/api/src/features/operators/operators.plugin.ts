/**
 * Operators in the app: cookies, the CSRF protection, the sign-in routes, and the gate the
 * merchant's routes take when HISTORY_ACCESS=operators (undefined with `open`: nothing changes).
 */
import fastifyCookie from '@fastify/cookie';
import fastifyCsrfProtection from '@fastify/csrf-protection';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { auditRoutes } from './audit/audit.routes.ts';
import { authRoutes } from './auth.routes.ts';
import { keysRoutes } from './keys/keys.routes.ts';
import type { Gate } from './access-doc.ts';
import { manageRoutes } from './manage.routes.ts';
import { PAYMENT_REQUEST_ACCESS, paymentRequestGate } from './payment-access.ts';
import {
  recogniseAccess,
  requireAccess,
  requireOperator,
  type AccessRule,
  type AuthDeps,
} from './require-operator.ts';
import { setPasswordRoutes } from './set-password.routes.ts';
import { dummyHash } from '../../lib/password.ts';
import { CSRF_BINDING_KEY, cookieNames, cookieOptions, csrfBinding } from './session-cookie.ts';

/**
 * Failed sign-ins allowed for a name from one address and from one address, in any 15 minutes,
 * and for a name from all addresses in any hour (docs/decisions/005-sign-in-limits.md). A
 * one-time link's attempts count per address in fixed windows of the same length.
 */
export const SIGN_IN_LIMIT = {
  perNameAndAddress: 5,
  perAddress: 20,
  windowS: 15 * 60,
  perName: 100,
  nameWindowS: 60 * 60,
} as const;

/**
 * The gates of the merchant's routes: reading the history (a viewer, or a key that reads
 * payments), exporting it (an owner, or such a key), and payment requests (open to a payer; the
 * shop's need a cashier or a key that requests payments: payment-access.ts).
 */
export interface HistoryGuards {
  read: Gate;
  export: Gate;
  payment: Gate;
  /** A payment's page: open to all, the merchant's view to those who may read the history. */
  paymentPage: Gate;
  /**
   * The shop's own work on payments that needs no payer (a receipt check): a cashier or an owner
   * signed in, or a key that requests payments; no credential is refused.
   */
  takePayments: Gate;
}

export const HISTORY_ACCESS_RULES = {
  read: { role: 'viewer', scope: 'payments:read' },
  export: { role: 'owner', scope: 'payments:read' },
} as const satisfies Record<string, AccessRule>;

type OperatorsDeps = { config: Config; db: Kysely<Database>; now: () => Date };

/** What the gates need: the session cookie's name, the session limits, the allowed origins. */
export function authDepsFor({ config, db, now }: OperatorsDeps): AuthDeps {
  const { operators } = config;
  return {
    db,
    now,
    cookieName: cookieNames(operators.cookieSecure).session,
    corsOrigins: config.corsOrigins,
    sessions: {
      idleMs: operators.idleMs,
      maxMs: operators.maxMs,
      signInLimit: SIGN_IN_LIMIT,
      passwordHashCost: operators.passwordHashCost,
    },
  };
}

/**
 * The gate of an owner's change to something else than operators (a payment's review): a signed-in
 * owner, whatever HISTORY_ACCESS says, in a request not sent by another site (the session's gate
 * refuses one). The route adds `preHandler: app.csrfProtection`.
 */
export function ownerChangeGate(deps: OperatorsDeps): onRequestAsyncHookHandler[] {
  return [requireOperator(authDepsFor(deps), 'owner')];
}

/**
 * With HISTORY_ACCESS=open, a payment's page is everyone's, and a signed-in operator who may read
 * the history is also recognised there and shown the merchant's view: an owner refunds or reviews
 * from it as in operators mode (their changes are held to a signed-in owner whatever the mode).
 */
export function openPaymentPageRecogniser(deps: OperatorsDeps): Gate {
  return {
    onRequest: recogniseAccess(authDepsFor(deps), HISTORY_ACCESS_RULES.read),
    rule: HISTORY_ACCESS_RULES.read,
  };
}

/** Registers them under `api` (the `/api` prefix) and returns the history's gates, if any. */
export async function registerOperators(
  api: FastifyInstance,
  { config, db, now }: OperatorsDeps,
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
    getUserInfo: (request) => csrfBinding(request, names.session),
    csrfOpts: { userInfo: true, hmacKey: CSRF_BINDING_KEY },
  });
  const deps = authDepsFor({ config, db, now });
  await api.register(authRoutes, {
    deps,
    secureCookie: secure,
    corsOrigins: config.corsOrigins,
  });
  // Made now, not at the first unknown name's sign-in, which would then take longer than others.
  await dummyHash(operators.passwordHashCost);
  if (operators.historyAccess !== 'operators') return undefined;
  // With `open` every screen is open to all, as the product's requirements show them: nothing needs
  // an owner's screens, a one-time link or a key, and none is there.
  await api.register(manageRoutes, { deps, corsOrigins: config.corsOrigins });
  await api.register(auditRoutes, { db, owner: requireOperator(deps, 'owner') });
  await api.register(setPasswordRoutes, {
    deps: { db, now, limit: SIGN_IN_LIMIT, passwordHashCost: operators.passwordHashCost },
    corsOrigins: config.corsOrigins,
  });
  await api.register(keysRoutes, { deps, corsOrigins: config.corsOrigins });
  const gate = (rule: AccessRule): Gate => ({ onRequest: requireAccess(deps, rule), rule });
  return {
    read: gate(HISTORY_ACCESS_RULES.read),
    export: gate(HISTORY_ACCESS_RULES.export),
    payment: {
      onRequest: paymentRequestGate(deps),
      rule: PAYMENT_REQUEST_ACCESS,
    },
    paymentPage: {
      onRequest: recogniseAccess(deps, HISTORY_ACCESS_RULES.read),
      rule: HISTORY_ACCESS_RULES.read,
    },
    takePayments: gate(PAYMENT_REQUEST_ACCESS),
  };
}
