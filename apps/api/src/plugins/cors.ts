/**
 * CORS for `/api`: lets a web app on another origin (CORS_ORIGINS) call the API from a browser.
 *
 * Our own few lines rather than @fastify/cors, which does not fit exactly here: its `OPTIONS *`
 * route and hook cover the whole server (the callback route and the web files too) unless it is
 * registered inside the `/api` scope, and then the root's answers (404s, the router's own refusals)
 * go out without its headers; a refused origin's preflight gets 204 with no headers (or a 404 with
 * an origin function), and one missing its headers a plain-text 400, never our
 * `{success, code, message}`. The router's refusals (`frameworkErrors`: a broken %-escape, an
 * overlong path parameter) pass no hook at all, so error-handler.ts calls `addHeaders` for them
 * itself.
 *
 * What it sends, for an origin on the list (or any origin with `*`), on every `/api` answer but the
 * callback route's, errors included: Access-Control-Allow-Origin (the origin itself, or `*`), and
 * the headers a client may read (Retry-After on a refusal, Idempotent-Replayed on a payment
 * answered again, Content-Disposition on the CSV export). No Access-Control-Allow-Credentials:
 * the API uses no cookies or HTTP authentication, so a page reads nothing its server could not
 * read by asking itself (what `*` does let any site do, config.ts warns about at start-up). With a
 * list, every `/api` answer says `Vary: Origin`, since it depends on who asks. Other origins get
 * no CORS headers, and the browser keeps their pages from reading the answer; their preflight is
 * refused with 403 in our own shape.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isCallbackRequest } from '../callbacks/callback-paths.ts';
import type { Config } from '../config.ts';
import { originNotAllowed } from '../errors.ts';
import { isApiUrl } from '../lib/api-path.ts';

const ALLOWED_METHODS = 'GET, POST';
/** What the web app sends (api-client.ts): Content-Type is JSON even on GETs, so every call is preflighted. */
const ALLOWED_HEADERS = 'Content-Type, Accept, Idempotency-Key';
const EXPOSED_HEADERS = 'Retry-After, Idempotent-Replayed, Content-Disposition';
/**
 * How long a browser may keep a preflight's answer: two hours, the most Chromium keeps (Firefox
 * would keep a day). The app's GETs are preflighted too (see ALLOWED_HEADERS), so the detail
 * screen's polling asks once, not every 5 s.
 */
const PREFLIGHT_MAX_AGE_S = 7200;

export interface Cors {
  /** False when CORS_ORIGINS is empty: no origin but the API's own. */
  readonly enabled: boolean;
  /** Adds the headers an answer to this request needs (nothing outside `/api`, or with CORS off). */
  addHeaders(request: FastifyRequest, reply: FastifyReply): void;
}

export function createCors(origins: Config['corsOrigins']): Cors {
  const any = origins === '*';
  const listed = new Set(any ? [] : origins);
  const enabled = any || listed.size > 0;
  return {
    enabled,
    addHeaders(request, reply) {
      // Daraja's callbacks: server to server, never asked from a page, so answered as they always were.
      if (!enabled || !isApiUrl(request.url) || isCallbackRequest(request)) return;
      if (!any) reply.header('Vary', 'Origin');
      const origin = request.headers.origin;
      if (!any && (origin === undefined || !listed.has(origin))) return;
      reply.header('Access-Control-Allow-Origin', any ? '*' : origin);
      reply.header('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    },
  };
}

/**
 * Sets the headers on every answer (a hook at the root, so that the not-found handler's answers
 * and errors have them: Fastify keeps headers set before an error through the error handler), and
 * answers preflights under `/api`. Called before any other hook, so that the answers of earlier
 * refusals (503 while shutting down, a missing Host header) carry them as well.
 */
function registerCors(app: FastifyInstance, cors: Cors): void {
  if (cors.enabled) {
    app.addHook('onRequest', (request, reply, done) => {
      cors.addHeaders(request, reply);
      done();
    });
  }

  // A route rather than an answer from the hook: the hooks before it (shutting down, the Host
  // check) still refuse a preflight as they refuse anything else. It is there with CORS off too,
  // to tell a page on another origin why it is refused. `hide` keeps it out of the API's
  // description, as @fastify/swagger reads it.
  app.options('/api/*', { schema: { hide: true } }, async (request, reply) => {
    const origin = request.headers.origin;
    const isPreflight = origin !== undefined && request.headers['access-control-request-method'];
    // Not a preflight, or for the callback route: answered as any OPTIONS always was.
    if (!isPreflight || isCallbackRequest(request)) return reply.callNotFound();
    if (!reply.hasHeader('Access-Control-Allow-Origin')) {
      throw originNotAllowed();
    }
    return reply
      .code(204)
      .header('Access-Control-Allow-Methods', ALLOWED_METHODS)
      .header('Access-Control-Allow-Headers', ALLOWED_HEADERS)
      .header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_S))
      .send();
  });
}

/** The plugin app.ts registers first, given the `Cors` the router's refusals use too. */
export const corsPlugin = fp(async (app, { cors }: { cors: Cors }) => registerCors(app, cors), {
  name: 'cors',
});
