/**
 * The session cookie and the CSRF secret's cookie: HttpOnly, SameSite=Strict, Secure when the API
 * is reached over HTTPS (SESSION_COOKIE_SECURE). A Secure cookie takes the `__Host-` prefix, which
 * browsers accept only with Path=/ and no Domain: no other host (a subdomain) can then set or
 * shadow it. Without Secure, the prefix is not allowed, and the cookie is kept to Path=/api.
 */
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';

export interface CookieNames {
  session: string;
  csrf: string;
}

export function cookieNames(secure: boolean): CookieNames {
  const prefix = secure ? '__Host-' : '';
  return { session: `${prefix}mpesa_session`, csrf: `${prefix}mpesa_csrf` };
}

export function cookieOptions(secure: boolean): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'strict', secure, path: secure ? '/' : '/api' };
}

/**
 * Each CSRF token is bound to the session it was asked with: besides the secret in its own cookie,
 * it folds in the session cookie's value, so a token someone got with their own session (and a
 * secret cookie they managed to plant in another's browser) is refused beside anyone else's
 * session. What makes it unforgeable is that session token, which only the browser holding the
 * HttpOnly cookie has. The library also wants an HMAC key, the same on every instance (a token
 * from one is checked by another), so the key is a fixed label, not a secret.
 */
export const CSRF_BINDING_KEY = 'mpesa-csrf-token-bound-to-session/1';

/** What a CSRF token is bound to: the session cookie sent (none: no session, and no change). */
export function csrfBinding(request: FastifyRequest, sessionCookie: string): string {
  return request.cookies[sessionCookie] ?? '';
}
