/** API answers of 1 KB or more are compressed for clients that accept it; small ones are not. */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from './test/test-db.ts';
import { createTestApp } from './test/test-app.ts';
import { storedPayment } from './test/stored-payment.ts';

describe('compressed answers', () => {
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    ({ app } = await createTestApp({ database }));
    await database.db
      .insertInto('transactions')
      .values(
        Array.from({ length: 20 }, (_, i) =>
          storedPayment(`zip-${i}`, new Date(Date.UTC(2026, 10, 20, 9, i)).toISOString()),
        ),
      )
      .execute();
  });
  afterAll(async () => {
    await app.close();
    await database.destroy();
  });

  const history = (encoding?: string) =>
    app.inject({
      url: '/api/mpesa/transactions',
      headers: encoding ? { 'accept-encoding': encoding } : {},
    });

  it('sends the history with brotli or gzip as asked, the same JSON either way', async () => {
    const plain = await history();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().data).toHaveLength(20);
    const br = await history('br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gzip = await history('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it('sends small answers as they are', async () => {
    const health = await app.inject({ url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('refuses a compressed request body instead of inflating it', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/mpesa/stkpush',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toMatchObject({ success: false });
  });
});
