/**
 * Whether a request's URL is the API's (`/api` or `/api/…`) rather than the web app's. One answer
 * for both that ask: the not-found handler (plugins/not-found.ts: the API's 404 in JSON, or the
 * single-page app's index.html) and CORS (plugins/cors.ts: headers on the API's answers only), so
 * that no address is the API's to one and the web app's to the other.
 *
 * Read as the router reads a path: up to the first `?` or `#` (so `/api?x` is `/api`), with its
 * %-escapes decoded as `decodeURI` does (so `/%61pi/health` is the health route, and `/api%2Fx`,
 * whose slash stays escaped, is no address under `/api`). `/api` itself is compared ignoring
 * case: the router's routes do not (`/API/health` is no route), but no page of the web app can be
 * there either, and a program that miscases the API's address is better told in JSON that nothing
 * is there than sent a web page with 200.
 */

const API_PATH = /^\/api(?:\/|$)/i;

/** The path part of a request URL (the request target as sent, query and fragment left out). */
function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  try {
    return decodeURI(path);
  } catch {
    // A broken %-escape: the router refuses it (BAD_URL), and the path is read as sent.
    return path;
  }
}

/** The decoded path of a URL that is the API's, or undefined for any other. */
export function apiPath(url: string): string | undefined {
  const path = pathOf(url);
  return API_PATH.test(path) ? path : undefined;
}

export function isApiUrl(url: string): boolean {
  return apiPath(url) !== undefined;
}
