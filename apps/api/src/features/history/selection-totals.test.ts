/**
 * What a filtered history adds up to (issue 35): how many payments the filters select over the
 * whole selection, not a page, and how many of them were paid and for how much; a payment a
 * search finds in two ways counts once.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/test-db.ts';
import { historyApp } from '../../test/history-app.ts';

for (const dialect of DIALECTS) {
  describe(`what the history's filters add up to (${dialect})`, () => {
    const history = historyApp(dialect);
    const { add } = history;
    const totals = async (search: string) => {
      const response = await history.app.inject({ url: `/api/mpesa/transactions/totals${search}` });
      return { status: response.statusCode, body: response.json() };
    };

    it('counts the whole selection, and what of it was paid', async () => {
      for (let i = 0; i < 60; i++) {
        await add(`p${i}`, {
          reference: `INV-${i}`,
          amount: 100 + i,
          status: i % 3 === 0 ? 'failed' : 'success',
        });
      }
      await add('refunded', { reference: 'INV-R', amount: 5000, status: 'refunded' });
      // More than a page (50) of the list.
      const all = await totals('?q=inv');
      expect(all.status).toBe(200);
      const paid = Array.from({ length: 60 }, (_, i) => i).filter((i) => i % 3 !== 0);
      expect(all.body).toEqual({
        success: true,
        data: {
          count: 61,
          paidCount: paid.length,
          paid: paid.reduce((sum, i) => sum + 100 + i, 0),
        },
      });
      expect((await totals('?status=failed')).body.data).toEqual({
        count: 20,
        paidCount: 0,
        paid: 0,
      });
      expect((await totals('?status=refunded&q=INV-R')).body.data).toEqual({
        count: 1,
        paidCount: 0,
        paid: 0,
      });
      expect((await totals('?from=2026-11-21')).body.data).toEqual({
        count: 0,
        paidCount: 0,
        paid: 0,
      });
    });

    it('counts once a payment that a search finds by its reference and by its number', async () => {
      await add('both', { reference: '0001 rent', phone_number: '254700000001', amount: 700 });
      await add('number', { reference: 'Rent', phone_number: '254711110001', amount: 300 });
      await add('receipt', {
        reference: 'Other',
        mpesa_receipt_number: 'QKJ1A2B3C4',
        amount: 50,
      });
      await add('neither', { reference: 'Unga', phone_number: '254722222222', amount: 9 });
      expect((await totals('?q=0001')).body.data).toEqual({ count: 2, paidCount: 2, paid: 1000 });
      expect((await totals('?q=qkj1a2b3c4')).body.data).toEqual({
        count: 1,
        paidCount: 1,
        paid: 50,
      });
      expect((await totals('?q=0711110001')).body.data).toEqual({
        count: 1,
        paidCount: 1,
        paid: 300,
      });
    });

    it('counts what its receipt or its number alone finds (no receipt: not found by one), and once what its receipt and its reference both find', async () => {
      await add('till', { reference: 'Goods', mpesa_receipt_number: 'TIL1A2B3C4', amount: 80 });
      await add('pending', {
        reference: 'Goods',
        mpesa_receipt_number: null,
        phone_number: '254733339876',
        amount: 20,
      });
      await add('twice', {
        reference: 'REC1A2B3C4',
        mpesa_receipt_number: 'REC1A2B3C4',
        amount: 5,
      });
      await add('by-reference', { reference: 'rec1a2b3c4 extra', amount: 7 });
      expect((await totals('?q=til1a2b3c4')).body.data).toEqual({
        count: 1,
        paidCount: 1,
        paid: 80,
      });
      expect((await totals('?q=9876')).body.data).toEqual({ count: 1, paidCount: 1, paid: 20 });
      expect((await totals('?q=REC1A2B3C4')).body.data).toEqual({
        count: 2,
        paidCount: 2,
        paid: 12,
      });
    });

    it('refuses filters it cannot read, in our shape', async () => {
      const answer = await totals('?status=paid');
      expect(answer.status).toBe(400);
      expect(answer.body.success).toBe(false);
      expect((await totals(`?q=${'x'.repeat(101)}`)).status).toBe(400);
      expect((await totals('?q=%25')).body.data.count).toBe(0);
    });
  });
}
