/**
 * Where Daraja posts its callbacks, said once: the routes (callback.routes.ts), the URL each
 * request to Daraja carries (`callbackUrlFor(kind)`, made by `callbackUrls`), the log's masking of
 * the secret (plugins/request-log.ts)
 * and CORS, which leaves the callback routes out (plugins/cors.ts), all take it from here.
 *
 * Every callback route is a prefix, the secret, then its kind's suffix: the secret comes right
 * after the prefix, so that one rule masks it in every log line and the router's longest parameter
 * is still the secret. STK push's suffix is empty (its URL is the one Daraja has always been
 * given). The C2B URLs have a prefix of their own, `/api/c2b/`: Daraja refuses to register a URL
 * with the word "mpesa" in it (docs/daraja-protocol.md §M3.1).
 */
import type { FastifyRequest } from 'fastify';
import type { CallbackKind } from '../db/callback-kinds.ts';

/** Where the API's routes are mounted (app.ts) and where every callback route starts below it. */
const API_PREFIX = '/api';
const RESULT_SEGMENT = '/mpesa/callback/';
const C2B_SEGMENT = '/c2b/';
/** The prefixes of every callback route. */
export const CALLBACK_PREFIXES = [`${API_PREFIX}${RESULT_SEGMENT}`, `${API_PREFIX}${C2B_SEGMENT}`];
/** STK push's, and every Result API's. */
export const CALLBACK_PREFIX = CALLBACK_PREFIXES[0] as string;

/** Each kind's segment before the secret, and what follows the secret. */
const KIND_PATH: Record<CallbackKind, { segment: string; suffix: string }> = {
  'stk-push': { segment: RESULT_SEGMENT, suffix: '' },
  reversal: { segment: RESULT_SEGMENT, suffix: '/reversal' },
  'refund-status': { segment: RESULT_SEGMENT, suffix: '/refund-status' },
  'receipt-status': { segment: RESULT_SEGMENT, suffix: '/receipt-status' },
  'queue-timeout': { segment: RESULT_SEGMENT, suffix: '/queue-timeout' },
  'c2b-validation': { segment: C2B_SEGMENT, suffix: '/validation' },
  'c2b-confirmation': { segment: C2B_SEGMENT, suffix: '/confirmation' },
};

/** The route of a kind, as registered under `/api`: e.g. `/mpesa/callback/:secret/reversal`. */
export function callbackRoute(kind: CallbackKind): string {
  const { segment, suffix } = KIND_PATH[kind];
  return `${segment}:secret${suffix}`;
}

/** The URL Daraja is given for a kind of callback. */
export type CallbackUrlFor = (kind: CallbackKind) => string;

/** `callbackUrlFor`, for the base URL Daraja reaches the API at and the path secret. */
export function callbackUrls(baseUrl: string, secret: string): CallbackUrlFor {
  return (kind) => {
    const { segment, suffix } = KIND_PATH[kind];
    return `${baseUrl}${API_PREFIX}${segment}${secret}${suffix}`;
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
