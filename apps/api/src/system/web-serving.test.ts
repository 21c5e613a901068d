import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { createTestApp } from '../test/test-app.ts';

for (const dialect of DIALECTS) {
  describe(`serving the web app (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let dist: string;

    beforeAll(async () => {
      dist = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-dist-'));
      fs.mkdirSync(path.join(dist, 'assets'));
      fs.writeFileSync(
        path.join(dist, 'index.html'),
        '<!doctype html><title>app</title><div id="root"></div>',
      );
      fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
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
