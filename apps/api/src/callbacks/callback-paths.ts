/**
 * Where Daraja posts its callbacks: the routes (callback.routes.ts), the URL each request to Daraja
 * carries (`callbackUrlFor(kind)`, made by `callbackUrls`), the log's masking of the secret
 * (plugins/request-log.ts) and CORS, which leaves the callback routes out (plugins/cors.ts), all
 * take the shape of a route from here; each kind's own route is its feature's.
 *
 * Every callback route is a prefix, the secret, then its kind's suffix: the secret comes right
 * after the prefix, so that one rule masks it in every log line and the router's longest parameter
 * is still the secret. STK push's suffix is empty (its URL is the one Daraja has always been
 * given). The C2B URLs have a prefix of their own, `/api/c2b/`: Daraja refuses to register a URL
 * with the word "mpesa" in it (docs/daraja-protocol.md §M3.1).
 */
import type { FastifyRequest } from 'fastify';

/** Where the API's routes are mounted (app.ts) and where every callback route starts below it. */
const API_PREFIX = '/api';
const RESULT_SEGMENT = '/mpesa/callback/';
const C2B_SEGMENT = '/c2b/';
/** The prefixes of every callback route. */
export const CALLBACK_PREFIXES = [`${API_PREFIX}${RESULT_SEGMENT}`, `${API_PREFIX}${C2B_SEGMENT}`];
/** STK push's, and every Result API's. */
export const CALLBACK_PREFIX = CALLBACK_PREFIXES[0] as string;

/**
 * Where one kind of callback is posted: its segment before the secret, and what follows the
 * secret. Each feature says it for the kinds it handles (features/feature.ts).
 */
export interface CallbackRoute {
  segment: typeof RESULT_SEGMENT | typeof C2B_SEGMENT;
  suffix: string;
}

/** A Result API's (or STK push's) route: `/api/mpesa/callback/<secret><suffix>`. */
export const resultRoute = (suffix: string): CallbackRoute => ({ segment: RESULT_SEGMENT, suffix });
/** A C2B route: `/api/c2b/<secret><suffix>`. */
export const c2bRoute = (suffix: string): CallbackRoute => ({ segment: C2B_SEGMENT, suffix });

/** The route of a kind, as registered under `/api`: e.g. `/mpesa/callback/:secret/reversal`. */
export function callbackRoute({ segment, suffix }: CallbackRoute): string {
  return `${segment}:secret${suffix}`;
}

/** The URL Daraja is given for a kind of callback (a feature names the kinds it may ask for). */
export type CallbackUrlFor<Kind extends string = string> = (kind: Kind) => string;

/**
 * `callbackUrlFor`, from every kind's route (features/index.ts's `CALLBACK_ROUTES`), the base URL
 * Daraja reaches the API at and the path secret. A kind with no route is a programming error.
 */
export function callbackUrls(
  routes: Readonly<Record<string, CallbackRoute>>,
  baseUrl: string,
  secret: string,
): CallbackUrlFor {
  return (kind) => {
    const route = routes[kind];
    if (!route) throw new Error(`No callback route for the ${kind} kind`);
    return `${baseUrl}${API_PREFIX}${route.segment}${secret}${route.suffix}`;
  };
}

const SECRET_IN_PATH = /(\/api\/(?:mpesa\/callback|c2b)\/)[^/?#]+/;

/** A request URL as it may be logged: the callback secret masked. */
export function redactCallbackUrl(url: string): string {
  return url.replace(SECRET_IN_PATH, '$1[redacted]');
}

/** Whether a request is for a callback route (Daraja's, server to server, never a page's). */
export function isCallbackRequest(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  return CALLBACK_PREFIXES.some(
    (prefix) => url?.startsWith(prefix) === true || request.url.startsWith(prefix),
  );
}
