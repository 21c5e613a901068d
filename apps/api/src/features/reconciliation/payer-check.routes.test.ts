/**
 * A payer's "I have paid" (POST /api/mpesa/transactions/:id/check) against the simulator, on each
 * database: M-PESA is asked at once, its answer applied as reconciliation's would be, and the
 * asking is limited per payment and per address.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/test-db.ts';
import { useApiWithSimulator } from '../../test/world.ts';
import { CHECKS_PER_ADDRESS, CHECKS_PER_PAYMENT } from './payer-check.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 150)); // the simulator settles after 50 ms

for (const dialect of DIALECTS) {
  describe(`"I have paid" (${dialect})`, () => {
    /** The time the API sees; tests move it. */
    let clock = Date.now();
    const world = useApiWithSimulator(dialect, { now: () => new Date(clock) });
    beforeEach(() => {
      // At the start of the limits' fixed windows (10 s, an hour), so that a test's steps fall in
      // the windows they mean to: the limits count per window, not per moving interval.
      clock = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1000;
    });

    const pay = async (phoneNumber: string, amount = 30) =>
      (
        await world.app.inject({
          method: 'POST',
          url: '/api/mpesa/stkpush',
          payload: { phoneNumber, amount },
        })
      ).json().transactionId as string;
    const check = (id: string) =>
      world.app.inject({ method: 'POST', url: `/api/mpesa/transactions/${id}/check` });
    const queries = () =>
      world.simulator.log
        .list({ kind: 'request' })
        .filter((entry) => entry.kind === 'request' && entry.path.includes('stkpushquery'));

    it('finds a payment whose callback was lost (0700009999) paid at once, as a query report', async () => {
      const id = await pay('0700009999');
      await settle();
      const answer = await check(id);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({
        success: true,
        found: 'result',
        data: { _id: id, status: 'success', resultCode: '0' },
      });
      expect(queries()).toHaveLength(1);
      const last = await world.database.db
        .selectFrom('transaction_events')
        .select(['source', 'from_status', 'to_status'])
        .where('transaction_id', '=', id)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(last).toEqual({ source: 'query', from_status: 'pending', to_status: 'success' });
      // The page says the same.
      const page = await world.app.inject({ url: `/api/mpesa/transactions/${id}` });
      expect(page.json().data.status).toBe('success');
    });

    it('says M-PESA is still waiting while the payer has not answered, and leaves the payment pending', async () => {
      await world.simulator.prompts.setNext('254711000001', { outcome: { kind: 'manual' } });
      const id = await pay('0711000001');
      const answer = await check(id);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ found: 'processing', data: { status: 'pending' } });
    });

    it('asks no one about a payment that is no longer pending, and counts nothing', async () => {
      const id = await pay('0700009999');
      await settle();
      await check(id);
      clock += 1000; // well within the gap between checks: a settled payment is not limited
      for (let i = 0; i < CHECKS_PER_PAYMENT + 2; i++) {
        const again = await check(id);
        expect(again.statusCode).toBe(200);
        expect(again.json()).toMatchObject({ found: 'settled', data: { status: 'success' } });
      }
      expect(queries()).toHaveLength(1);
    });

    it('asks about one payment at most once in each 10-second window, and a few times in all', async () => {
      await world.simulator.prompts.setNext('254711000002', { outcome: { kind: 'manual' } });
      const id = await pay('0711000002');
      expect((await check(id)).statusCode).toBe(200);

      clock += 2000;
      const soon = await check(id);
      expect(soon.statusCode).toBe(429);
      expect(soon.json()).toMatchObject({ success: false, code: 'TOO_MANY_REQUESTS' });
      expect(soon.json().message).toMatch(/^M-PESA was asked about this payment a moment ago\./);
      const wait = Number(soon.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(10);
      expect(queries()).toHaveLength(1); // the refused check asked no one

      for (let i = 1; i < CHECKS_PER_PAYMENT; i++) {
        clock += 10_000;
        expect((await check(id)).statusCode).toBe(200);
      }
      clock += 10_000;
      const spent = await check(id);
      expect(spent.statusCode).toBe(429);
      expect(spent.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
      expect(spent.json().message).toContain('This page will update as soon as M-PESA reports.');
      expect(queries()).toHaveLength(CHECKS_PER_PAYMENT);
    });

    it('limits the checks from one address, whatever the payment', async () => {
      const now = new Date(clock).toISOString();
      const ids = Array.from({ length: CHECKS_PER_ADDRESS + 1 }, (_, i) => `pending-${i}`);
      await world.database.db
        .insertInto('transactions')
        .values(
          ids.map((id, i) => ({
            id,
            reference: 'Payment',
            description: 'Payment',
            phone_number: `2547110001${String(i).padStart(2, '0')}`,
            amount: 10,
            status: 'pending' as const,
            merchant_request_id: null,
            checkout_request_id: null,
            result_code: null,
            response_description: null,
            customer_message: null,
            mpesa_receipt_number: null,
            transaction_date: null,
            created_at: now,
            updated_at: now,
            next_check_at: now,
            lease_owner: null,
            lease_until: null,
            flagged_reason: null,
          })),
        )
        .execute();
      for (const id of ids.slice(0, -1)) {
        const answer = await check(id);
        expect(answer.statusCode).toBe(200);
        // Not acknowledged by M-PESA: there is nothing it could be asked about yet.
        expect(answer.json()).toMatchObject({ found: 'not_sent', data: { status: 'pending' } });
      }
      const refused = await check(ids.at(-1)!);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        success: false,
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many checks from your network. Please wait a minute and try again.',
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('answers an unknown payment 404 in our shape', async () => {
      const answer = await check('no-such-payment');
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ success: false, code: 'TRANSACTION_NOT_FOUND' });
    });

    it("answers with the payer's view with HISTORY_ACCESS=operators, as the page does", async () => {
      await world.rebuild({ HISTORY_ACCESS: 'operators' });
      const id = await pay('0700009999');
      await settle();
      const answer = await check(id);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({
        found: 'result',
        data: { view: 'payer', status: 'success' },
      });
      expect(answer.body).not.toContain('254700009999');
      expect(answer.headers['cache-control']).toContain('no-store');
    });
  });
}
