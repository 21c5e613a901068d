/**
 * Where Daraja posts its callbacks, said once: the routes (callback.routes.ts), the URL each
 * request to Daraja carries (`callbackUrlFor(kind)`, made by `callbackUrls`), the log's masking of
 * the secret (plugins/request-log.ts)
 * and CORS, which leaves the callback routes out (plugins/cors.ts), all take it from here.
 *
 * Every callback route is `/api/mpesa/callback/<secret>` followed by its kind's suffix: the secret
 * comes first, so that one rule masks it in every log line and the router's longest parameter is
 * still the secret. STK push's suffix is empty (its URL is the one Daraja has always been given).
 */
import type { FastifyRequest } from 'fastify';
import type { CallbackKind } from './callback-kinds.ts';

/** Where the API's routes are mounted (app.ts) and where every callback route starts below it. */
const API_PREFIX = '/api';
const CALLBACK_SEGMENT = '/mpesa/callback/';
export const CALLBACK_PREFIX = `${API_PREFIX}${CALLBACK_SEGMENT}`;

/** What follows the secret in each kind's path (a future kind: e.g. `/b2c-result`). */
const KIND_SUFFIX: Record<CallbackKind, string> = {
  'stk-push': '',
};

/** The route of a kind, as registered under `/api`: `/mpesa/callback/:secret…`. */
export function callbackRoute(kind: CallbackKind): string {
  return `${CALLBACK_SEGMENT}:secret${KIND_SUFFIX[kind]}`;
}

/** The URL Daraja is given for a kind of callback. */
export type CallbackUrlFor = (kind: CallbackKind) => string;

/** `callbackUrlFor`, for the base URL Daraja reaches the API at and the path secret. */
export function callbackUrls(baseUrl: string, secret: string): CallbackUrlFor {
  return (kind) => `${baseUrl}${CALLBACK_PREFIX}${secret}${KIND_SUFFIX[kind]}`;
}

const SECRET_IN_PATH = /(\/api\/mpesa\/callback\/)[^/?#]+/;

/** A request URL as it may be logged: the callback secret masked. */
export function redactCallbackUrl(url: string): string {
  return url.replace(SECRET_IN_PATH, '$1[redacted]');
}

/** Whether a request is for a callback route (Daraja's, server to server, never a page's). */
export function isCallbackRequest(request: FastifyRequest): boolean {
  return (
    request.routeOptions.url?.startsWith(CALLBACK_PREFIX) === true ||
    request.url.startsWith(CALLBACK_PREFIX)
  );
}
