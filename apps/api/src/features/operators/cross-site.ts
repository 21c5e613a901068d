/**
 * Refuses a request sent by a page on another site: its browser says so in `Sec-Fetch-Site`, and
 * in `Origin`. A request with neither (curl, a server) is no browser's, so carries no one's cookie
 * unknowingly. Used where there is no CSRF token yet (sign-in: a cross-site form could otherwise
 * sign a victim in as the attacker) and beside the token everywhere else.
 */
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { crossSiteRequest } from '../../errors.ts';

/**
 * Whether `origin` is the app's own: the same scheme, host and port as the request was sent to
 * (the default port of the scheme counts as none). Comparing the host alone let a page on another
 * port of the same host (the simulator's, say) sign a victim in as the attacker. Behind a proxy that
 * ends TLS, TRUST_PROXY makes `request.protocol` the page's own (X-Forwarded-Proto). `null` (a
 * sandboxed frame, a redirect) is no one's.
 */
function isOwnOrigin(origin: string, request: FastifyRequest): boolean {
  try {
    return new URL(origin).origin === new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return false;
  }
}

/** `origin` as a browser writes it (`https://shop.example`), or undefined if it is none. */
function normalOrigin(origin: string): string | undefined {
  try {
    const { origin: normal } = new URL(origin);
    return normal === 'null' ? undefined : normal;
  } catch {
    return undefined;
  }
}

export function refuseCrossSite(corsOrigins: '*' | readonly string[]): onRequestAsyncHookHandler {
  // A web app served from another origin and listed in CORS_ORIGINS is ours (scheme, host and
  // port alike); `*` lists no one.
  const ours = new Set(corsOrigins === '*' ? [] : corsOrigins.map(normalOrigin));
  const listed = (origin: string | undefined) =>
    origin !== undefined && normalOrigin(origin) !== undefined && ours.has(normalOrigin(origin));
  return async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, request) && !listed(origin)) {
      throw crossSiteRequest();
    }
    const site = request.headers['sec-fetch-site'];
    const sameSite = site === undefined || site === 'same-origin' || site === 'none';
    if (!sameSite && !listed(origin)) throw crossSiteRequest();
  };
}
