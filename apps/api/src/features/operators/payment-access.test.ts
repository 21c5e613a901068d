/**
 * Payment requests with HISTORY_ACCESS=operators (payment-access.ts), beyond the refusal matrix:
 * a payer needs nothing, whichever page sent the form, and a cookie no longer signed in is a
 * payer's; the shop's requests are recorded like anyone's. On each database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { SESSION_LIMITS, signedInWorld, type SignedInWorld } from '../../test/signed-in.ts';

const CROSS_SITE = { origin: 'https://shop.example', 'sec-fetch-site': 'cross-site' };

for (const dialect of DIALECTS) {
  describe(`payment requests with operators (${dialect})`, () => {
    let database: TestDatabase;
    let world: SignedInWorld;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      world = await signedInWorld(database);
    });
    afterEach(async () => {
      await world.close();
      await database.destroy();
    });

    const pay = (phoneNumber: string, headers: Record<string, string> = {}) =>
      world.app.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        payload: { phoneNumber, amount: 10 },
        headers,
      });

    it('takes a payer’s request with no credential, from any page, as the specification does', async () => {
      const answer = await pay('0712000001', CROSS_SITE);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toMatchObject({ success: true, transactionId: expect.any(String) });
    });

    it('takes a viewer’s cookie whose session has ended for a payer’s request', async () => {
      const viewer = await world.signIn('viewer');
      expect((await pay('0712000002', { cookie: viewer.cookie })).statusCode).toBe(403);
      world.advance(SESSION_LIMITS.idleMs + 1000);
      const answer = await pay('0712000003', { cookie: viewer.cookie, ...CROSS_SITE });
      expect(answer.statusCode, answer.body).toBe(200);
    });

    it('counts the shop’s own requests apart from the payers’ on the same network, each apart', async () => {
      const ownDatabase = await createTestDatabase(dialect);
      const own = await signedInWorld(ownDatabase, { STKPUSH_RATE_LIMIT: '2' });
      const send = (phoneNumber: string, headers: Record<string, string> = {}) =>
        own.app.inject({
          method: 'POST',
          url: '/api/mpesa/stkpush',
          payload: { phoneNumber, amount: 10 },
          headers,
        });
      try {
        // Strangers on the shop's network use up the address's two requests.
        expect((await send('0712000101')).statusCode).toBe(200);
        expect((await send('0712000102')).statusCode).toBe(200);
        const stranger = await send('0712000103');
        expect(stranger.statusCode).toBe(429);
        expect(stranger.json()).toMatchObject({ code: 'RATE_LIMITED' });

        // The cashier's and the key's are their own, and limited in turn.
        const cashier = await own.signIn('cashier');
        const key = { authorization: `Bearer ${own.keys['payments:request']}` };
        for (const [phone, headers] of [
          ['0712000104', { cookie: cashier.cookie }],
          ['0712000105', { cookie: cashier.cookie }],
          ['0712000106', key],
          ['0712000107', key],
        ] as const) {
          const answer = await send(phone, headers);
          expect(answer.statusCode, answer.body).toBe(200);
        }
        const third = await send('0712000108', { cookie: cashier.cookie });
        expect(third.json()).toMatchObject({ code: 'RATE_LIMITED' });
      } finally {
        await own.close();
        await ownDatabase.destroy();
      }
    });

    it('tells the web app the history is not open, so that it offers it to no payer', async () => {
      const config = await world.app.inject({ url: '/api/config' });
      expect(config.json()).toMatchObject({ historyOpen: false });
    });

    it('keeps the payer’s limits: one prompt at a time to a phone', async () => {
      const cashier = await world.signIn('cashier');
      expect((await pay('0712000004', { cookie: cashier.cookie })).statusCode).toBe(200);
      const again = await pay('0712000004', {
        authorization: `Bearer ${world.keys['payments:request']}`,
      });
      expect(again.statusCode).toBe(429);
      expect(again.json()).toMatchObject({ code: 'PHONE_BUSY' });
    });
  });
}
