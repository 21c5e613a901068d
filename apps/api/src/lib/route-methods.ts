/**
 * Which methods the app's routes answer at a path, so that a request with another method is told
 * `405 Method Not Allowed` with an `Allow` header rather than that nothing is there (the
 * not-found handler in plugins/not-found.ts asks). Collected as routes are registered; a
 * catch-all route (the CORS preflight, `OPTIONS /api/*`) says nothing about any one path and is
 * left out.
 */
import type { FastifyInstance } from 'fastify';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function routeMethods(app: FastifyInstance): (path: string) => string[] {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const segments = route.url
      .split('/')
      .map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment)));
    routes.push({
      pattern: new RegExp(`^${segments.join('/')}$`),
      methods: [route.method].flat(),
    });
  });
  return (path) => {
    const methods = routes
      .filter(({ pattern }) => pattern.test(path))
      .flatMap(({ methods: each }) => each);
    return [...new Set(methods)].sort();
  };
}
