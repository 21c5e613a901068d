/**
 * Who sees a till or paybill payer's name (docs/product.md §11), on each database. With
 * HISTORY_ACCESS=operators the payer's view of a payment (anyone with the link) carries no name,
 * the merchant's view does; with HISTORY_ACCESS=open the history is open to whoever reaches it,
 * numbers included, and so is the name. The timeline never carries it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../../test/test-db.ts';
import { DIALECTS, createTestDatabase } from '../../test/test-db.ts';
import { createTestApp } from '../../test/test-app.ts';
import { PAYMENT_ID, signedInWorld } from '../../test/signed-in.ts';
import { recordC2bPayment } from '../c2b/c2b-payments.service.ts';

const NAME = 'NICHOLAS JOHN SONGOK';
const TILL = {
  channel: 'till',
  payer_name: NAME,
  payer_msisdn: '2547 ***** 126',
  shortcode: '600100',
  phone_number: '2547 ***** 126',
  status: 'success',
  result_code: '0',
  mpesa_receipt_number: 'UKR1TILL01',
  reference: '',
} as const;

for (const dialect of DIALECTS) {
  describe(`a till payer's name (${dialect})`, () => {
    let database: TestDatabase;
    let close: () => Promise<void>;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(async () => {
      await close();
      await database.destroy();
    });

    it('is not in the payer’s view with HISTORY_ACCESS=operators, and is in the merchant’s', async () => {
      const world = await signedInWorld(database);
      close = world.close;
      await database.db
        .updateTable('transactions')
        .set(TILL)
        .where('id', '=', PAYMENT_ID)
        .execute();
      const page = `/api/mpesa/transactions/${PAYMENT_ID}`;
      const payers = await world.app.inject(page);
      expect(payers.json().data).toMatchObject({ view: 'payer', payerName: null });
      expect(payers.body).not.toContain('SONGOK');
      const browser = await world.signIn('viewer');
      const merchants = await world.app.inject({ url: page, headers: { cookie: browser.cookie } });
      expect(merchants.json().data).toMatchObject({ view: 'merchant', payerName: NAME });
    });

    it('is in the open history with HISTORY_ACCESS=open, as the number is, but not its timeline', async () => {
      const { app } = await createTestApp({ database, env: { HISTORY_ACCESS: 'open' } });
      close = () => app.close();
      const { transactionId: id } = await recordC2bPayment(
        database.db,
        {
          channel: 'till',
          receipt: 'UKR1TILL01',
          amount: 250,
          shortcode: '600100',
          reference: '',
          transactionDate: new Date().toISOString(),
          payerName: NAME,
          payerMsisdn: '2547 ***** 126',
        },
        { kind: 'c2b_confirmed', at: new Date().toISOString() },
      );
      const page = await app.inject(`/api/mpesa/transactions/${id}`);
      expect(page.json().data).toMatchObject({ payerName: NAME, phoneNumber: '2547 ***** 126' });
      const list = await app.inject('/api/mpesa/transactions?limit=10');
      expect(list.json().data).toMatchObject([{ _id: id, payerName: NAME }]);
      const timeline = await app.inject(`/api/mpesa/transactions/${id}/events`);
      expect(timeline.json().data).toHaveLength(1);
      expect(timeline.body).not.toContain('SONGOK');
    });
  });
}
