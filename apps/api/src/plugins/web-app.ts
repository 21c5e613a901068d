/**
 * The built web app (apps/web's build, WEB_DIST_DIR): its files, and index.html for every page
 * address (the not-found handler sends it, not-found.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

export function isWebAppBuilt(webDistDir: string): boolean {
  return fs.existsSync(path.join(webDistDir, 'index.html'));
}

/** Serves the files of a built web app (registered only when there is one). */
export const webAppFiles = fp(
  async (app, { root }: { root: string }) => {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      maxAge: '1h',
      // The build leaves brotli and gzip copies beside each text file (apps/web/tooling): sent to
      // browsers that accept them, with Content-Encoding and Vary: Accept-Encoding; never served
      // under their own names.
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders: (reply, filePath) => {
        // Hashed asset names never change content; index.html must always be fresh.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  },
  { name: 'web-app-files' },
);

/** A page of the single-page app: its index.html, or a plain 503 when it has not been built. */
export function sendWebPage(reply: FastifyReply, built: boolean): FastifyReply {
  if (!built) {
    return reply
      .code(503)
      .type('text/plain; charset=utf-8')
      .send('The web app has not been built yet. Run "npm start", which builds it first.');
  }
  // Client-side routes (/transactions/…) all load the single-page app.
  return reply.header('Cache-Control', 'no-cache').sendFile('index.html', { cacheControl: false });
}
