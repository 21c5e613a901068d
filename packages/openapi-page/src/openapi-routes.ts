/**
 * The readable page of an app's OpenAPI document, under the prefix the app registers it with:
 * `docs` and its stylesheet `docs/openapi-page.css`. The page links to the JSON as `openapi.json`
 * beside it, which the app serves itself. Both describe the other routes and are left out of the
 * document (`hide`).
 */
/// <reference types="@fastify/swagger" />
import type { FastifyInstance } from 'fastify';
import { OPENAPI_PAGE_CSS, renderOpenApiPage } from './openapi-page.ts';

export interface OpenApiPageOptions {
  /** The app's document (its `swagger()`), asked for at the first request, once the app is ready. */
  document: () => object;
}

export const HIDDEN = { schema: { hide: true } };

export async function openApiPageRoutes(
  app: FastifyInstance,
  { document }: OpenApiPageOptions,
): Promise<void> {
  let page: string | undefined;

  app.get('/docs', HIDDEN, async (_request, reply) => {
    // Relative links: the page works under whatever prefix the app gives these routes.
    page ??= renderOpenApiPage(document(), {
      json: 'openapi.json',
      stylesheet: 'docs/openapi-page.css',
    });
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(page);
  });

  app.get('/docs/openapi-page.css', HIDDEN, async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(OPENAPI_PAGE_CSS),
  );
}
