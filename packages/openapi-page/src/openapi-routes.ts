/**
 * The readable pages of an app's OpenAPI document, under the prefix the app registers them with:
 * `docs` (every route by tag, and the search), `docs/<route>` (one route: `docs/get-api-health`)
 * and their stylesheet `docs/openapi-page.css`. The pages link to the JSON as `openapi.json`
 * beside `docs`, which the app serves itself. All of them describe the other routes and are left
 * out of the document (`hide`).
 */
/// <reference types="@fastify/swagger" />
import type { FastifyInstance, FastifyReply } from 'fastify';
import { OPENAPI_PAGE_CSS, openApiPages } from './openapi-page.ts';

export interface OpenApiPageOptions {
  /** The app's document (its `swagger()`), asked for at the first request, once the app is ready. */
  document: () => object;
}

export const HIDDEN = { schema: { hide: true } };

/** A host name or address, with its port: anything else in Host is not put in a command. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The origin the page was asked at, for its curl examples (`http://localhost` if Host is odd). */
export function originOf(protocol: string, host: string): string {
  return `${protocol === 'https' ? 'https' : 'http'}://${HOST.test(host) ? host : 'localhost'}`;
}

export async function openApiPageRoutes(
  app: FastifyInstance,
  { document }: OpenApiPageOptions,
): Promise<void> {
  let made: ReturnType<typeof openApiPages> | undefined;
  // Relative links: the pages work under whatever prefix the app gives these routes.
  const pages = () => (made ??= openApiPages(document(), { json: 'openapi.json', page: 'docs' }));
  const html = (reply: FastifyReply, body: string) =>
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(body);

  app.get('/docs', HIDDEN, async (request, reply) => {
    const { q } = request.query as { q?: unknown };
    return html(reply, pages().contents({ query: typeof q === 'string' ? q : '' }));
  });

  app.get('/docs/openapi-page.css', HIDDEN, async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(OPENAPI_PAGE_CSS),
  );

  // A name no route has is the app's own not-found answer, as any other address under it.
  app.get('/docs/:route', HIDDEN, async (request, reply) => {
    const { route } = request.params as { route: string };
    const page = pages().route(route, { origin: originOf(request.protocol, request.host) });
    return page === undefined ? reply.callNotFound() : html(reply, page);
  });
}
