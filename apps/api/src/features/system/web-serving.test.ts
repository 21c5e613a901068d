import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { NOT_FOUND_MESSAGE } from '../../errors.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { createTestApp } from '../../test/test-app.ts';
import { listenLocally } from '../../test/raw-http.ts';

const ROBOTS_TXT = path.resolve(import.meta.dirname, '../../../../web/public/robots.txt');
const SCRIPT = `console.log(${JSON.stringify('a line the compressor can fold. '.repeat(40))})`;
const INDEX_HTML = '<!doctype html><title>app</title><div id="root"></div>';
/** A page on another origin allowed to call the API (CORS_ORIGINS): its headers mark the API's answers. */
const SHOP = 'https://shop.example';
const NOT_FOUND = { success: false, code: 'NOT_FOUND', message: NOT_FOUND_MESSAGE };

/**
 * An answer's headers less those that may differ between GET and HEAD: the time, and how a body is
 * framed (a streamed body is chunked; a HEAD answer has no body to frame, RFC 9110 §9.3.2).
 */
const headersToCompare = (headers: Record<string, unknown>) => {
  const { date: _date, 'transfer-encoding': _framing, ...rest } = headers;
  return rest;
};

/**
 * GET over a real connection, with the request target sent exactly as given: inject() and fetch()
 * drop a `#fragment`, which a client may still send.
 */
function rawGet(port: number, target: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const request = http.get(
        { host: '127.0.0.1', port, path: target, headers: { origin: SHOP } },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
          );
        },
      );
      request.on('error', reject);
    },
  );
}

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
      ({ app } = await createTestApp({
        database,
        env: { WEB_DIST_DIR: dist, CORS_ORIGINS: SHOP },
      }));
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

    it('answers HEAD as GET, without the body, on every screen’s path and every file', async () => {
      const urls = [
        '/',
        '/transactions',
        '/transactions/abc',
        '/somewhere/else',
        '/robots.txt',
        '/assets/index-abc123.js',
      ];
      for (const url of urls) {
        for (const headers of [{}, { 'accept-encoding': 'gzip, br' }]) {
          const label = `${url} ${JSON.stringify(headers)}`;
          const get = await app.inject({ method: 'GET', url, headers });
          const head = await app.inject({ method: 'HEAD', url, headers });
          expect(get.statusCode, label).toBe(200);
          expect(head.statusCode, label).toBe(200);
          expect(headersToCompare(head.headers), label).toEqual(headersToCompare(get.headers));
          expect(head.rawPayload.length, label).toBe(0);
        }
      }
    });

    it('answers in the API’s name for /api and /api/… whatever follows the path, and CORS agrees', async () => {
      // The API's: our 404 in JSON, with the CORS headers a page needs to read it.
      for (const url of ['/api', '/api?x', '/api?', '/api/', '/api/?x', '/API', '/Api/health']) {
        for (const method of ['GET', 'HEAD'] as const) {
          const label = `${method} ${url}`;
          const answer = await app.inject({ method, url, headers: { origin: SHOP } });
          expect(answer.statusCode, label).toBe(404);
          expect(answer.headers['content-type'], label).toMatch(/^application\/json/);
          expect(answer.headers['access-control-allow-origin'], label).toBe(SHOP);
          if (method === 'GET') expect(answer.json(), label).toEqual(NOT_FOUND);
        }
      }
      // The router's %-decoding: still the health route, and the API's headers with it.
      const escaped = await app.inject({ url: '/%61pi/health', headers: { origin: SHOP } });
      expect(escaped.json()).toEqual({ status: 'ok' });
      expect(escaped.headers['access-control-allow-origin']).toBe(SHOP);
      // The web app's: the single-page app, with no CORS headers.
      for (const url of ['/apix', '/apix?x', '/api%2Fhealth', '/apiary/api']) {
        const answer = await app.inject({ url, headers: { origin: SHOP } });
        expect(answer.statusCode, url).toBe(200);
        expect(answer.body, url).toBe(INDEX_HTML);
        expect(answer.headers['access-control-allow-origin'], url).toBeUndefined();
        expect(answer.headers.vary, url).not.toMatch(/origin/i);
      }
    });

    it('reads a #fragment sent on the wire as the end of the path, as the router does', async () => {
      const port = await listenLocally(app);
      for (const target of ['/api#x', '/api/#x', '/API#x']) {
        const answer = await rawGet(port, target);
        expect(answer.status, target).toBe(404);
        expect(JSON.parse(answer.body), target).toEqual(NOT_FOUND);
        expect(answer.headers['access-control-allow-origin'], target).toBe(SHOP);
      }
      const health = await rawGet(port, '/api/health#x');
      expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
      expect(health.headers['access-control-allow-origin']).toBe(SHOP);
      const page = await rawGet(port, '/transactions#x');
      expect(page.status).toBe(200);
      expect(page.body).toBe(INDEX_HTML);
      expect(page.headers['access-control-allow-origin']).toBeUndefined();
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

    it('says the web app is not built yet, to HEAD as to GET', async () => {
      const unbuilt = await createTestApp({ database });
      for (const method of ['GET', 'HEAD'] as const) {
        const answer = await unbuilt.app.inject({ method, url: '/transactions' });
        expect(answer.statusCode, method).toBe(503);
        expect(answer.headers['content-type'], method).toMatch(/^text\/plain/);
      }
      await unbuilt.app.close();
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
