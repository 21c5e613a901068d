/** Every answer carries the security headers, the API's and its errors alike, worked out once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from './test/test-db.ts';
import { createTestApp } from './test/test-app.ts';

describe('security headers', () => {
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    ({ app } = await createTestApp({ database }));
  });
  afterAll(async () => {
    await app.close();
    await database.destroy();
  });

  it.each(['/api/health', '/api/mpesa/transactions/nope', '/api/nowhere'])(
    'are on %s',
    async (url) => {
      const { headers } = await app.inject({ url });
      expect(headers['content-security-policy']).toBe(
        "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self';connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
      );
      expect(headers).toMatchObject({
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-frame-options': 'SAMEORIGIN',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      });
      expect(headers['strict-transport-security']).toBeUndefined();
      expect(headers['x-powered-by']).toBeUndefined();
    },
  );

  it('adds Strict-Transport-Security in production only', async () => {
    const production = await createTestApp({
      database,
      env: {
        MPESA_ENV: 'production',
        MPESA_CONSUMER_KEY: 'key',
        MPESA_CONSUMER_SECRET: 'secret',
        MPESA_SHORTCODE: '174379',
        MPESA_PASSKEY: 'passkey',
        MPESA_CALLBACK_URL: 'https://shop.example',
      },
    });
    const { headers } = await production.app.inject({ url: '/api/health' });
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    await production.app.close();
  });
});
