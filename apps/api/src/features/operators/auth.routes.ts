/**
 * Signing in and out (docs/decisions/003-operator-sessions.md, 005-sign-in-limits.md). HTTP only: the rules are in
 * sessions.service.ts, the gate in require-operator.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordAudit } from '../../audit/audit.ts';
import { clientAddress, limitKeyFor } from '../../lib/client-address.ts';
import { guardedSchema } from './access-doc.ts';
import { AUTH_ANSWERS, signInBodySchema } from './auth.openapi.ts';
import { refuseCrossSite } from './cross-site.ts';
import { cookieOptions, csrfBinding } from './session-cookie.ts';
import { operatorOf, requireOperator, type AccessRule, type AuthDeps } from './require-operator.ts';
import { signIn, signOut } from './sessions.service.ts';

export interface AuthRoutesOptions {
  deps: AuthDeps;
  secureCookie: boolean;
  corsOrigins: '*' | readonly string[];
}

type RoutesApp = Parameters<FastifyPluginAsyncZod>[0];
const tags = ['Operators'];
/** Any operator signed in, whatever HISTORY_ACCESS says; never a key. */
const SIGNED_IN: AccessRule = { role: 'viewer' };

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  // Nothing about a session is kept by a cache on the way.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });
  signInRoutes(app, options);
  sessionRoutes(app, options);
};

/** Sign-in, and the CSRF token the requests after it send. */
function signInRoutes(app: RoutesApp, { deps, secureCookie, corsOrigins }: AuthRoutesOptions) {
  const crossSite = refuseCrossSite(corsOrigins);

  app.post(
    '/auth/sign-in',
    {
      onRequest: crossSite,
      schema: {
        summary: 'Sign in as an operator',
        description:
          'Opens a session: an HttpOnly, SameSite=Strict cookie (Secure over HTTPS). Failures are ' +
          'limited per name from one address and per address, in sliding windows, so that ' +
          'guesses from one address never hold another back; a name guessed at from many ' +
          'addresses is then let in only from an address its operator has signed in from. A ' +
          'wrong name and a wrong password get the same answer.',
        tags,
        body: signInBodySchema.meta({
          'x-examples': {
            signIn: {
              summary: 'An operator signs in',
              value: { name: 'amina', password: 'correct horse battery staple' },
            },
          },
        }),
        response: AUTH_ANSWERS.signIn,
      },
    },
    async (request, reply) => {
      const address = clientAddress(request);
      const session = await signIn(deps, {
        ...request.body,
        addressKey: limitKeyFor(address),
        address,
      });
      // A session the browser held before is ended, not left valid beside the new one.
      const earlier = request.cookies[deps.cookieName];
      if (earlier) await signOut(deps, earlier);
      reply.setCookie(deps.cookieName, session.token, {
        ...cookieOptions(secureCookie),
        expires: session.expiresAt,
      });
      return {
        success: true as const,
        data: { name: session.name, role: session.role, failedAttempts: session.failedSignIns },
      };
    },
  );

  app.get(
    '/auth/csrf',
    {
      schema: {
        summary: 'A CSRF token',
        description:
          'Every state-changing request that relies on the session cookie sends this token in an ' +
          '`X-CSRF-Token` header (@fastify/csrf-protection: the token is checked against a secret ' +
          'kept in an HttpOnly cookie).',
        tags,
        response: AUTH_ANSWERS.csrf,
      },
    },
    // Bound to the session this browser has now (operators.plugin.ts): ask again after signing in.
    async (request, reply) => ({
      success: true as const,
      data: { token: reply.generateCsrf({ userInfo: csrfBinding(request, deps.cookieName) }) },
    }),
  );
}

/** What a signed-in operator does with the session: sign out, ask who they are. */
function sessionRoutes(app: RoutesApp, { deps, secureCookie, corsOrigins }: AuthRoutesOptions) {
  const crossSite = refuseCrossSite(corsOrigins);
  const signedIn = requireOperator(deps, SIGNED_IN.role);
  app.post(
    '/auth/sign-out',
    {
      onRequest: [crossSite, signedIn],
      preHandler: app.csrfProtection,
      schema: guardedSchema(
        {
          summary: 'Sign out',
          description: 'Revokes the session in the database (every instance refuses it at once).',
          tags,
          response: AUTH_ANSWERS.signOut,
        },
        SIGNED_IN,
        { always: true },
      ),
    },
    async (request, reply) => {
      await signOut(deps, request.cookies[deps.cookieName] ?? '');
      await recordAudit(deps.db, {
        at: deps.now(),
        actorKind: 'operator',
        actor: operatorOf(request).name,
        action: 'sign_out',
        address: clientAddress(request),
      });
      reply.clearCookie(deps.cookieName, cookieOptions(secureCookie));
      return { success: true as const, data: { signedOut: true as const } };
    },
  );

  app.get(
    '/auth/me',
    {
      onRequest: signedIn,
      schema: guardedSchema(
        {
          summary: 'The operator signed in',
          description: 'Answered 401 UNAUTHENTICATED when no valid session cookie is sent.',
          tags,
          response: AUTH_ANSWERS.me,
        },
        SIGNED_IN,
        { always: true },
      ),
    },
    async (request) => {
      const { name, role } = operatorOf(request);
      return { success: true as const, data: { name, role } };
    },
  );
}
