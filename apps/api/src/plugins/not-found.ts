/**
 * What is answered where no route is: under `/api` (and for any method but GET and HEAD) a JSON
 * 404, or a 405 with `Allow` when the address has routes for other methods; anywhere else a page
 * of the web app (web-app.ts).
 */
import fp from 'fastify-plugin';
import { methodNotAllowed, notFound as notFoundError } from '../errors.ts';
import { apiPath } from '../lib/api-path.ts';
import { sendWebPage } from './web-app.ts';

export interface NotFoundOptions {
  /** Which methods the routes answer at a path (lib/route-methods.ts). */
  methodsAt: (path: string) => string[];
  /** Whether the web app has been built (its pages are served). */
  webBuilt: boolean;
}

export const notFound = fp(
  async (app, { methodsAt, webBuilt }: NotFoundOptions) => {
    app.setNotFoundHandler(async (request, reply) => {
      const { method } = request;
      const api = apiPath(request.url);
      // HEAD is answered as GET is, without the body (Node leaves it out): monitors and link
      // checkers ask a page with HEAD.
      if (api !== undefined || (method !== 'GET' && method !== 'HEAD')) {
        // OPTIONS is the CORS preflight's (cors.ts): one it does not answer stays not found.
        const known = api !== undefined && method !== 'OPTIONS';
        const allowed = known ? methodsAt(api) : [];
        if (allowed.length > 0 && !allowed.includes(method)) {
          throw methodNotAllowed(method, allowed);
        }
        throw notFoundError();
      }
      return sendWebPage(reply, webBuilt);
    });
  },
  { name: 'not-found' },
);
