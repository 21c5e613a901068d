/**
 * Recording a till or paybill payment (c2b-payments.service.ts), on each database: once per
 * receipt whatever channel first brought it, and with an event the timeline can tell without the
 * payer's name or number.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { describeEvent } from '../history/events.routes.ts';
import { listTransactionEvents } from '../history/events.repository.ts';
import { readC2bBody, type C2bPayment } from './c2b-body.ts';
import { anEndpoint } from '../../test/webhooks.fixtures.ts';
import { recordC2bPayment } from './c2b-payments.service.ts';

const TILL_CONFIRMATION = JSON.stringify({
  TransactionType: 'Buy Goods',
  TransID: 'UKR1TILL01',
  TransTime: '20261127120000',
  TransAmount: '250.00',
  BusinessShortCode: '600100',
  BillRefNumber: '',
  InvoiceNumber: '',
  OrgAccountBalance: '1000.00',
  ThirdPartyTransID: '',
  MSISDN: '2547 ***** 126',
  FirstName: 'NICHOLAS',
  MiddleName: 'JOHN',
  LastName: 'SONGOK',
});

function paymentOf(raw: string): C2bPayment {
  const reading = readC2bBody(raw);
  if (!reading.ok) throw new Error(reading.problem);
  return reading.payment;
}

for (const dialect of DIALECTS) {
  describe(`recording a till or paybill payment (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(async () => {
      await database.destroy();
    });

    it('does not record again a receipt a prompt’s payment already brought', async () => {
      await database.db
        .insertInto('transactions')
        .values(
          storedPayment('stk-paid', '2026-11-27T09:00:00.000Z', {
            amount: 500,
            status: 'success',
            result_code: '0',
            mpesa_receipt_number: 'UAB1C2D3E4',
          }),
        )
        .execute();
      const result = await recordC2bPayment(
        database.db,
        {
          channel: 'paybill',
          receipt: 'UAB1C2D3E4',
          amount: 500,
          shortcode: '600100',
          reference: 'stk-paid',
          transactionDate: '2026-11-27T09:00:01.000Z',
          payerName: 'JOHN DOE',
          payerMsisdn: '2547 ***** 678',
        },
        { kind: 'c2b_confirmed', at: '2026-11-27T09:00:02.000Z' },
      );
      expect(result).toEqual({ transactionId: 'stk-paid', recorded: false });
      const rows = await database.db
        .selectFrom('transactions')
        .select('id')
        .where('mpesa_receipt_number', '=', 'UAB1C2D3E4')
        .execute();
      expect(rows).toHaveLength(1);
      const events = await database.db.selectFrom('transaction_events').select('id').execute();
      expect(events).toEqual([]);
    });

    it('tells where a till payment was paid and its receipt, its event keeping no payer', async () => {
      const { transactionId, recorded } = await recordC2bPayment(
        database.db,
        paymentOf(TILL_CONFIRMATION),
        { kind: 'c2b_confirmed', at: '2026-11-27T09:00:05.000Z' },
      );
      expect(recorded).toBe(true);
      const [event] = await listTransactionEvents(database.db, transactionId);
      expect(JSON.parse(event!.payload!)).toEqual({
        shortcode: '600100',
        channel: 'till',
        accountReference: '',
        receipt: 'UKR1TILL01',
      });
      expect(describeEvent(event!)).toMatchObject({
        title: 'Paid to till 600100 from the M-PESA menu',
        detail: 'Receipt UKR1TILL01.',
      });
    });

    it('tells the shop’s systems of a till payment once, as payment.received', async () => {
      await anEndpoint(database.db, { eventTypes: ['payment.received', 'payment.succeeded'] });
      const payment = paymentOf(TILL_CONFIRMATION);
      const how = { kind: 'c2b_confirmed', at: '2026-11-27T09:00:05.000Z' } as const;
      const { transactionId } = await recordC2bPayment(database.db, payment, how);
      // The same confirmation again (M-PESA's duplicate) tells nothing more.
      await recordC2bPayment(database.db, payment, how);
      const told = await database.db
        .selectFrom('webhook_events')
        .select(['type', 'transaction_id', 'body'])
        .execute();
      expect(told.map((event) => [event.type, event.transaction_id])).toEqual([
        ['payment.received', transactionId],
      ]);
      expect(JSON.parse(told[0]!.body)).toMatchObject({
        data: { payment: { channel: 'till', mpesaReceiptNumber: 'UKR1TILL01', amount: 250 } },
      });
    });
  });
}
