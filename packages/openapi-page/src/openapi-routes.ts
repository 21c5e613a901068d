/**
 * The readable page of an app's OpenAPI document, under the prefix the app registers it with:
 * `docs` and its stylesheet `docs/openapi-page.css`. The page links to the JSON as `openapi.json`
 * beside it, which the app serves itself. Both describe the other routes and are left out of the
 * document (`hide`).
 */
/// <reference types="@fastify/swagger" />
import type { FastifyInstance } from 'fastify';
import { OPENAPI_PAGE_CSS, openApiPage } from './openapi-page.ts';

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
  let page: ReturnType<typeof openApiPage> | undefined;

  app.get('/docs', HIDDEN, async (request, reply) => {
    // Relative links: the page works under whatever prefix the app gives these routes.
    page ??= openApiPage(document(), {
      json: 'openapi.json',
      stylesheet: 'docs/openapi-page.css',
      page: 'docs',
    });
    const { q } = request.query as { q?: unknown };
    const html = page({
      query: typeof q === 'string' ? q : '',
      origin: originOf(request.protocol, request.host),
    });
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html);
  });

  app.get('/docs/openapi-page.css', HIDDEN, async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(OPENAPI_PAGE_CSS),
  );
}
