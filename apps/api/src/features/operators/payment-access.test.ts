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
