import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { createTestApp } from '../test/test-app.ts';

const ROBOTS_TXT = path.resolve(import.meta.dirname, '../../../web/public/robots.txt');
const SCRIPT = `console.log(${JSON.stringify('a line the compressor can fold. '.repeat(40))})`;
const INDEX_HTML = '<!doctype html><title>app</title><div id="root"></div>';

/** A file and its brotli and gzip copies, as the web build leaves them (apps/web/tooling). */
function writeWithCompressedCopies(file: string, content: string): void {
  fs.writeFileSync(file, content);
  fs.writeFileSync(`${file}.br`, brotliCompressSync(content));
  fs.writeFileSync(`${file}.gz`, gzipSync(content));
}

for (const dialect of DIALECTS) {
  describe(`serving the web app (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let dist: string;

    beforeAll(async () => {
      dist = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-dist-'));
      fs.mkdirSync(path.join(dist, 'assets'));
      writeWithCompressedCopies(path.join(dist, 'index.html'), INDEX_HTML);
      writeWithCompressedCopies(path.join(dist, 'assets', 'index-abc123.js'), SCRIPT);
      fs.copyFileSync(ROBOTS_TXT, path.join(dist, 'robots.txt'));
      database = await createTestDatabase(dialect);
      ({ app } = await createTestApp({ database, env: { WEB_DIST_DIR: dist } }));
    });
    afterAll(async () => {
      await app.close();
      await database.destroy();
      fs.rmSync(dist, { recursive: true, force: true });
    });

    it('serves the single-page app on every screen’s path, with a strict Content-Security-Policy', async () => {
      for (const url of ['/', '/transactions', '/transactions/abc', '/somewhere/else']) {
        const response = await app.inject({ url });
        expect(response.statusCode, url).toBe(200);
        expect(response.body).toContain('<div id="root"></div>');
        const csp = String(response.headers['content-security-policy']);
        expect(csp).toContain("default-src 'self'");
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).not.toContain('unsafe-inline');
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['referrer-policy']).toBe('no-referrer');
      }
    });

    it('caches hashed assets for good and index.html never', async () => {
      const asset = await app.inject({ url: '/assets/index-abc123.js' });
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const page = await app.inject({ url: '/transactions' });
      expect(page.headers['cache-control']).toBe('no-cache');
    });

    it('sends brotli to browsers that accept it, else gzip, else the file as it is', async () => {
      const cases = [
        { acceptEncoding: 'gzip, deflate, br, zstd', encoding: 'br', decode: brotliDecompressSync },
        { acceptEncoding: 'gzip, deflate', encoding: 'gzip', decode: gunzipSync },
        { acceptEncoding: 'identity', encoding: undefined, decode: (body: Buffer) => body },
        { acceptEncoding: undefined, encoding: undefined, decode: (body: Buffer) => body },
      ];
      for (const { acceptEncoding, encoding, decode } of cases) {
        const response = await app.inject({
          url: '/assets/index-abc123.js',
          headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
        });
        const label = acceptEncoding ?? '(no Accept-Encoding)';
        expect(response.statusCode, label).toBe(200);
        expect(response.headers['content-encoding'], label).toBe(encoding);
        expect(response.headers['vary'], label).toMatch(/accept-encoding/i);
        expect(response.headers['content-type'], label).toMatch(/^(text|application)\/javascript/);
        expect(response.headers['cache-control'], label).toBe(
          'public, max-age=31536000, immutable',
        );
        const body = decode(response.rawPayload);
        expect(body.toString(), label).toBe(SCRIPT);
        if (encoding) expect(response.rawPayload.length, label).toBeLessThan(SCRIPT.length / 4);
      }
    });

    it('sends the single-page app compressed too, never cached', async () => {
      for (const url of ['/', '/transactions/abc']) {
        const response = await app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-encoding'], url).toBe('br');
        expect(response.headers['vary'], url).toMatch(/accept-encoding/i);
        expect(response.headers['content-type'], url).toMatch(/^text\/html/);
        expect(response.headers['cache-control'], url).toBe('no-cache');
        expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(INDEX_HTML);
      }
      const plain = await app.inject({ url: '/transactions' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(INDEX_HTML);
    });

    it('never serves the compressed copies under their own names', async () => {
      for (const url of ['/assets/index-abc123.js.br', '/assets/index-abc123.js.gz']) {
        // Not a route of their own: the address falls through to the single-page app.
        const response = await app.inject({ url });
        expect(response.headers['content-encoding'], url).toBeUndefined();
        expect(response.body, url).toBe(INDEX_HTML);
      }
    });

    it('answers /robots.txt with a robots file, as plain text', async () => {
      const response = await app.inject({ url: '/robots.txt' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body).toMatch(/^User-agent: \*$/m);
      expect(response.body).toMatch(/^Disallow: \/transactions$/m);
      expect(response.body).not.toContain('<');
    });

    it('answers probes for load balancers', async () => {
      expect((await app.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok' });
      expect((await app.inject({ url: '/api/ready' })).json()).toEqual({ status: 'ready' });
    });

    it('says it is not ready when migrations are missing', async () => {
      const empty = await createTestDatabase(dialect);
      await empty.db.schema.dropTable('kysely_migration').execute();
      const other = await createTestApp({ database: empty });
      const response = await other.app.inject({ url: '/api/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'not ready',
        reason: 'database migrations are pending',
      });
      await other.app.close();
      await empty.destroy();
    });
  });
}
