/**
 * Refuses a request sent by a page on another site: its browser says so in `Sec-Fetch-Site`, and
 * in `Origin`. A request with neither (curl, a server) is no browser's, so carries no one's cookie
 * unknowingly. Used where there is no CSRF token yet (sign-in: a cross-site form could otherwise
 * sign a victim in as the attacker) and beside the token everywhere else.
 */
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { crossSiteRequest } from '../errors.ts';

/**
 * Whether `origin` names the host the request was sent to. Neither the scheme nor the port is
 * compared: behind a proxy that ends TLS the app may see `http` for a page served over `https`,
 * and cookies themselves are shared by every port of a host. `null` (a sandboxed frame, a
 * redirect) is no one's.
 */
function isOwnHost(origin: string, request: FastifyRequest): boolean {
  try {
    return new URL(origin).hostname === request.hostname;
  } catch {
    return false;
  }
}

export function refuseCrossSite(corsOrigins: '*' | readonly string[]): onRequestAsyncHookHandler {
  // A web app served from another origin and listed in CORS_ORIGINS is ours; `*` lists no one.
  const listed = (origin: string | undefined) =>
    origin !== undefined && corsOrigins !== '*' && corsOrigins.includes(origin);
  return async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !isOwnHost(origin, request) && !listed(origin)) {
      throw crossSiteRequest();
    }
    const site = request.headers['sec-fetch-site'];
    const sameSite = site === undefined || site === 'same-origin' || site === 'none';
    if (!sameSite && !listed(origin)) throw crossSiteRequest();
  };
}
