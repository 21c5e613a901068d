/**
 * Money out where the money shows, on both databases: the payouts a page at a time with the
 * history's filters; money out today and over 7 business days, apart from the money received
 * (a payout is never counted as a payment received); the payouts as CSV, an owner's, in the audit
 * trail, its cells safe in a spreadsheet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewPayout } from './payouts.repository.ts';
import * as repo from './payouts.repository.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/test-db.ts';
import { signedInWorld, type Browser, type SignedInWorld } from '../../test/signed-in.ts';

function payout(id: string, at: string, fields: Partial<NewPayout> = {}): NewPayout {
  return {
    id,
    batch_id: null,
    kind: 'SalaryPayment',
    payee: '254708374149',
    account: null,
    amount: 1000,
    reason: 'Wages',
    status: 'succeeded',
    proposed_by: 'Baraka',
    proposed_by_id: 'cashier',
    decided_by: 'Amina',
    decided_by_id: 'owner',
    decided_at: at,
    charge_cents: 2240,
    receipt: `R${id}`,
    corrects_id: null,
    created_at: at,
    updated_at: at,
    ...fields,
  };
}

for (const dialect of DIALECTS) {
  describe(`money out in the history, on 25 November at noon in Nairobi (${dialect})`, () => {
    let database: TestDatabase;
    let world: SignedInWorld;
    let owner: Browser;
    let viewer: Browser;
    let cashier: Browser;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      world = await signedInWorld(database);
      await repo.insertPayouts(database.db, [
        // Today (Nairobi), paid: two, one to a till.
        payout('p-01', '2026-11-25T06:00:00.000Z', { amount: 1500 }),
        payout('p-02', '2026-11-25T07:00:00.000Z', {
          kind: 'BusinessBuyGoods',
          payee: '600100',
          amount: 250,
          charge_cents: 1300,
          reason: '=HYPERLINK("http://evil.example")',
        }),
        // Today, not paid: failed, and one waiting for approval.
        payout('p-03', '2026-11-25T07:30:00.000Z', { status: 'failed', charge_cents: null }),
        payout('p-04', '2026-11-25T08:00:00.000Z', {
          status: 'proposed',
          decided_by: null,
          decided_by_id: null,
          decided_at: null,
          charge_cents: null,
          receipt: null,
        }),
        // Yesterday 23:30 in Nairobi (20:30 UTC): in the week, not today.
        payout('p-05', '2026-11-24T20:30:00.000Z', { amount: 700 }),
        // Eight days ago: in neither.
        payout('p-06', '2026-11-17T08:00:00.000Z', { amount: 9000 }),
      ]);
      [owner, viewer, cashier] = await Promise.all([
        world.signIn('owner'),
        world.signIn('viewer'),
        world.signIn('cashier'),
      ]);
    });
    afterAll(async () => {
      await world.close();
      await database.destroy();
    });

    const get = (url: string, as?: Browser) =>
      world.app.inject({ url, headers: as ? { cookie: as.cookie } : {} });
    const ids = (body: { data: { payouts: { id: string }[] } }) =>
      body.data.payouts.map((each) => each.id);

    it('lists them newest first a page at a time, and by status and business day', async () => {
      const first = (await get('/api/payouts?limit=4', viewer)).json();
      expect(ids(first)).toEqual(['p-04', 'p-03', 'p-02', 'p-01']);
      const rest = (
        await get(`/api/payouts?limit=4&cursor=${first.data.nextCursor as string}`, viewer)
      ).json();
      expect(ids(rest)).toEqual(['p-05', 'p-06']);
      expect(rest.data.nextCursor).toBeNull();

      const paidToday = (
        await get('/api/payouts?status=succeeded&from=2026-11-25&to=2026-11-25', viewer)
      ).json();
      expect(ids(paidToday)).toEqual(['p-02', 'p-01']);
      const yesterday = (await get('/api/payouts?from=2026-11-24&to=2026-11-24', viewer)).json();
      expect(ids(yesterday)).toEqual(['p-05']);
    });

    it('refuses a bad filter or cursor in our shape', async () => {
      for (const [url, code] of [
        ['/api/payouts?cursor=not-ours', 'INVALID_CURSOR'],
        ['/api/payouts?status=paid', 'VALIDATION_ERROR'],
        ['/api/payouts?from=2026-11-25&to=2026-11-01', 'VALIDATION_ERROR'],
        ['/api/payouts?from=2026-02-30', 'VALIDATION_ERROR'],
        ['/api/payouts?limit=201', 'VALIDATION_ERROR'],
        ['/api/payouts/export?lang=fr', 'VALIDATION_ERROR'],
      ] as const) {
        const answer = await get(url, owner);
        expect(answer.statusCode, url).toBe(400);
        expect(answer.json(), url).toMatchObject({ success: false, code });
      }
    });

    it('counts money out today and over 7 business days, never as money received', async () => {
      const answer = (await get('/api/payouts/summary', viewer)).json();
      expect(answer.data).toEqual({
        today: { count: 2, amount: 1750, charges: 35.4 },
        last7Days: { count: 3, amount: 2450, charges: 57.8 },
        waiting: 1,
      });
      // The history's figures hold the one payment received, and none of the payouts.
      const received = (await get('/api/mpesa/summary', viewer)).json().data;
      expect(received.last7Days).toMatchObject({ count: 1, collected: 100 });
      expect(received.today).toMatchObject({ count: 1, collected: 100 });
    });

    it('exports them as CSV for an owner, in the audit trail, safe in a spreadsheet', async () => {
      const answer = await get('/api/payouts/export?status=succeeded&from=2026-11-25', owner);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(answer.headers['content-disposition']).toBe(
        'attachment; filename="payouts-2026-11-25.csv"',
      );
      const lines = answer.body.split('\r\n');
      expect(lines[0]).toBe(
        '\uFEFFPayout ID,"Proposed at (East Africa Time, UTC+03:00)",Kind,Paid to,Account,Amount (KES),Charge (KES),Status,M-PESA receipt,Receiver\'s name,Reason,Proposed by,Decided by,"Decided at (East Africa Time, UTC+03:00)",Result',
      );
      expect(lines.slice(1)).toEqual([
        'p-02,2026-11-25 10:00:00,BusinessBuyGoods,600100,,250,13,succeeded,Rp-02,,"\'=HYPERLINK(""http://evil.example"")",Baraka,Amina,2026-11-25 10:00:00,',
        'p-01,2026-11-25 09:00:00,SalaryPayment,254-708-374-149,,1500,22.4,succeeded,Rp-01,,Wages,Baraka,Amina,2026-11-25 09:00:00,',
        '',
      ]);
      const kiswahili = await get('/api/payouts/export?lang=sw', owner);
      expect(kiswahili.body.split('\r\n')[0]).toMatch(/^\uFEFFKitambulisho cha malipo,/);
      expect(kiswahili.body.split('\r\n')).toHaveLength(8);

      const trail = await database.db
        .selectFrom('audit_events')
        .select(['actor', 'detail'])
        .where('action', '=', 'payouts_export')
        .orderBy('id')
        .execute();
      expect(trail).toEqual([
        { actor: 'Amina', detail: 'status succeeded; from 2026-11-25' },
        { actor: 'Amina', detail: 'all' },
      ]);
    });

    it('is for signed-in people: the CSV an owner’s alone', async () => {
      expect((await get('/api/payouts/summary')).statusCode).toBe(401);
      expect((await get('/api/payouts')).statusCode).toBe(401);
      expect((await get('/api/payouts/export', cashier)).statusCode).toBe(403);
      expect((await get('/api/payouts/export', viewer)).statusCode).toBe(403);
    });
  });
}
