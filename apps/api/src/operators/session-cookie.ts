/**
 * The session cookie and the CSRF secret's cookie: HttpOnly, SameSite=Strict, Secure when the API
 * is reached over HTTPS (SESSION_COOKIE_SECURE). A Secure cookie takes the `__Host-` prefix, which
 * browsers accept only with Path=/ and no Domain: no other host (a subdomain) can then set or
 * shadow it. Without Secure, the prefix is not allowed, and the cookie is kept to Path=/api.
 */
import type { CookieSerializeOptions } from '@fastify/cookie';

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
