/**
 * A payment's page with HISTORY_ACCESS=operators: the payer's view to anyone with the link (the
 * number in part, nothing of the shop's), the merchant's to an operator or a key that reads
 * payments (the whole number, the flag, M-PESA's callbacks as they came). On each database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { createTestApp } from '../../test/test-app.ts';
import { PAYMENT_ID, signedInWorld, type SignedInWorld } from '../../test/signed-in.ts';

const PAGE = `/api/mpesa/transactions/${PAYMENT_ID}`;
const CHECKOUT = 'ws_CO_25112026080000123712000999';
const CALLBACK = JSON.stringify({
  Body: { stkCallback: { CheckoutRequestID: CHECKOUT, ResultCode: 0, ResultDesc: 'ok' } },
});

for (const dialect of DIALECTS) {
  describe(`a payment's page (${dialect})`, () => {
    let database: TestDatabase;
    let world: SignedInWorld;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      world = await signedInWorld(database);
      await database.db
        .updateTable('transactions')
        .set({
          checkout_request_id: CHECKOUT,
          flagged_reason: 'M-PESA says 90 KES were paid; 100 KES were asked for.',
          customer_message: 'Success. Request accepted for processing',
        })
        .where('id', '=', PAYMENT_ID)
        .execute();
      await database.db
        .insertInto('callbacks')
        .values({
          id: 'cb-1',
          kind: 'stk-push',
          received_at: '2026-11-25T08:00:30.000Z',
          checkout_request_id: CHECKOUT,
          transaction_id: PAYMENT_ID,
          source_ip: '196.201.214.200',
          raw_body: CALLBACK,
          outcome: 'mismatch',
        })
        .execute();
    });
    afterEach(async () => {
      await world.close();
      await database.destroy();
    });

    const page = (headers: Record<string, string> = {}) => world.app.inject({ url: PAGE, headers });

    /** Every string in `value`, with where it is (`data.checkoutRequestId`). */
    function* strings(value: unknown, at = ''): Generator<[string, string]> {
      if (typeof value === 'string') yield [at, value];
      else if (value && typeof value === 'object')
        for (const [key, inner] of Object.entries(value)) yield* strings(inner, `${at}.${key}`);
    }

    it("holds no run of the payer's digits anywhere but the recognisable number", async () => {
      // The payer (or the shop) may write the number itself into the reference or description.
      await database.db
        .updateTable('transactions')
        .set({ reference: '0712000999', description: 'For +254 712-000-999, paid by 254712000999' })
        .where('id', '=', PAYMENT_ID)
        .execute();
      // Every four digits in a row of the number, as 2547…, 07… or the 9-digit subscriber number.
      const runs = new Set<string>();
      for (const form of ['254712000999', '0712000999'])
        for (let start = 0; start + 4 <= form.length; start++)
          runs.add(form.slice(start, start + 4));
      const { data } = (await page()).json();
      expect(data.phoneNumber).toBe('0712 ••• 999');
      const found = [...strings(data, 'data')].flatMap(([at, text]) =>
        at === 'data.phoneNumber'
          ? []
          : [...runs]
              // The recognisable form is allowed wherever the number was written.
              .filter((run) =>
                text
                  .replaceAll('0712 ••• 999', ' ')
                  .replace(/[^0-9]/g, ' ')
                  .includes(run),
              )
              .map((run) => `${at}: ${run}`),
      );
      expect(found).toEqual([]);
      expect(data.checkoutRequestId).toBeNull();
      expect(data.reference).toBe('0712 ••• 999');
      expect(data.description).toBe('For 0712 ••• 999, paid by 0712 ••• 999');
    });

    it("shows anyone with the link the payer's view: the number in part, nothing of the shop's", async () => {
      const answer = await page();
      expect(answer.statusCode).toBe(200);
      const { data } = answer.json();
      expect(data).toMatchObject({ view: 'payer', phoneNumber: '0712 ••• 999' });
      expect(data.merchant).toBeUndefined();
      expect(answer.body).not.toContain('712000999');
      expect(answer.body).not.toContain('90 KES');
      expect(answer.body).not.toContain('accepted for processing');
    });

    it("shows an operator the merchant's view, and lets only an owner review the flag", async () => {
      for (const [role, mayReview] of [
        ['viewer', false],
        ['cashier', false],
        ['owner', true],
      ] as const) {
        const browser = await world.signIn(role);
        const { data } = (await page({ cookie: browser.cookie })).json();
        expect(data).toMatchObject({
          view: 'merchant',
          phoneNumber: '254712000999',
          checkoutRequestId: CHECKOUT,
          merchant: {
            flaggedReason: 'M-PESA says 90 KES were paid; 100 KES were asked for.',
            customerMessage: 'Success. Request accepted for processing',
            mayReview,
            callbacks: [
              { receivedAt: '2026-11-25T08:00:30.000Z', outcome: 'mismatch', rawBody: CALLBACK },
            ],
          },
        });
      }
    });

    it("shows a key that reads payments the merchant's view, one that only requests them the payer's, and refuses a revoked one", async () => {
      const read = (await page({ authorization: `Bearer ${world.keys['payments:read']}` })).json();
      expect(read.data).toMatchObject({ view: 'merchant', merchant: { mayReview: false } });
      const request = await page({ authorization: `Bearer ${world.keys['payments:request']}` });
      expect(request.json().data).toMatchObject({ view: 'payer', phoneNumber: '0712 ••• 999' });
      const revoked = await page({ authorization: `Bearer ${world.keys.revoked}` });
      expect(revoked.statusCode).toBe(401);
      expect(revoked.json()).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
    });

    it("shows the payer's view to a session that ended", async () => {
      const browser = await world.signIn('owner');
      await world.signOut(browser);
      const { data } = (await page({ cookie: browser.cookie })).json();
      expect(data.view).toBe('payer');
    });

    it('is as it always was with HISTORY_ACCESS=open: the whole payment, no view', async () => {
      const { app } = await createTestApp({ database, env: { HISTORY_ACCESS: 'open' } });
      try {
        const { data } = (await app.inject({ url: PAGE })).json();
        expect(data.phoneNumber).toBe('254712000999');
        expect(data.view).toBeUndefined();
        expect(data.merchant).toBeUndefined();
      } finally {
        await app.close();
      }
    });
  });
}
