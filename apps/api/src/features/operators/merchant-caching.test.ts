/**
 * With HISTORY_ACCESS=operators the history is the shop's and a payment's page depends on who
 * asks (the payer's view or the merchant's): no cache on the way may keep them and hand them to
 * the next person.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import {
  PAYMENT_ID,
  signedInWorld,
  type Browser,
  type SignedInWorld,
} from '../../test/signed-in.ts';

const SHOP = 'https://shop.example';

const varied = (header: unknown) =>
  String(header ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());

describe('caches and the merchant’s answers (HISTORY_ACCESS=operators)', () => {
  let database: TestDatabase;
  let world: SignedInWorld;
  let viewer: Browser;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    world = await signedInWorld(database, { CORS_ORIGINS: SHOP });
    viewer = await world.signIn('viewer');
  });
  afterAll(async () => {
    await world.close();
    await database.destroy();
  });

  it('keeps the list, the figures and the timeline out of every cache, refusals too', async () => {
    for (const url of [
      '/api/mpesa/transactions',
      '/api/mpesa/summary',
      '/api/mpesa/transactions/totals?status=success',
      `/api/mpesa/transactions/${PAYMENT_ID}/events`,
    ]) {
      const read = await world.app.inject({ url, headers: { cookie: viewer.cookie } });
      expect(read.statusCode, url).toBe(200);
      expect(read.headers['cache-control'], url).toBe('no-store');
      const refused = await world.app.inject({ url });
      expect(refused.statusCode, url).toBe(401);
      expect(refused.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('keeps a payment’s page out of every cache and says it varies with the credential', async () => {
    const asked = [
      {},
      { cookie: viewer.cookie },
      { authorization: `Bearer ${world.keys['payments:read']}` },
      { origin: SHOP },
    ];
    for (const headers of asked) {
      const answer = await world.app.inject({
        url: `/api/mpesa/transactions/${PAYMENT_ID}`,
        headers,
      });
      expect(answer.statusCode, JSON.stringify(headers)).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      // CORS's Origin is kept beside them.
      expect(varied(answer.headers.vary)).toEqual(
        expect.arrayContaining(['origin', 'cookie', 'authorization']),
      );
    }
  });
});
