/**
 * Each change to a payment puts its event in the outbox in the same transaction (docs/webhooks.md):
 * a final status, a flag, a person's review, a refund; a change rolled back leaves none; a shop
 * with no endpoint wanting the event gets none written.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, type WebhookEventBody } from '@mpesa/shared/contract-webhooks';
import { transact } from '../../db/transact.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { flag, transition } from './transaction-outcome.ts';
import { paymentWritesFor } from './payment-writes-for.ts';
import { findTransactionById } from './transactions.repository.ts';
import { clearFlag } from '../review/review.ts';
import { anEndpoint } from '../../test/webhooks.fixtures.ts';

const AT = '2026-11-27T09:00:00.000Z';
const context = { source: 'callback' as const, at: AT };

for (const dialect of DIALECTS) {
  describe(`payment changes into the outbox (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(async () => {
      await database.destroy();
    });
    const writes = () => paymentWritesFor(database.dialect);

    async function events(): Promise<WebhookEventBody[]> {
      const rows = await database.db
        .selectFrom('webhook_events')
        .select('body')
        .orderBy('id')
        .execute();
      return rows.map((row) => JSON.parse(row.body) as WebhookEventBody);
    }

    async function pending(id: string) {
      await database.db
        .insertInto('transactions')
        .values(storedPayment(id, AT, { status: 'pending' }))
        .execute();
      return (await findTransactionById(database.db, id))!;
    }

    it('tells of a final status, with the payment as it now stands', async () => {
      await anEndpoint(database.db, { eventTypes: [...WEBHOOK_EVENT_TYPES] });
      const row = await pending('paid-1');
      await transact(database.db, (trx) =>
        transition(
          writes(),
          trx,
          row,
          'success',
          { mpesa_receipt_number: 'UF1E26WQJZ' },
          { ...context, kind: 'applied', note: null },
        ),
      );
      const [event] = await events();
      expect(event).toMatchObject({
        type: 'payment.succeeded',
        data: { payment: { _id: 'paid-1', status: 'success', mpesaReceiptNumber: 'UF1E26WQJZ' } },
      });
      expect(event!.id).toMatch(/^evt_/);
    });

    it('writes nothing for a change rolled back, nor for a type no endpoint wants', async () => {
      await anEndpoint(database.db, { eventTypes: ['payment.refunded'] });
      const row = await pending('paid-2');
      await transact(database.db, (trx) =>
        transition(writes(), trx, row, 'success', {}, { ...context, kind: 'applied', note: null }),
      );
      expect(await events()).toEqual([]);

      await anEndpoint(database.db, { eventTypes: ['payment.failed'] });
      const other = await pending('failed-1');
      await expect(
        transact(database.db, async (trx) => {
          await transition(
            writes(),
            trx,
            other,
            'failed',
            {},
            { ...context, kind: 'applied', note: null },
          );
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await events()).toEqual([]);
    });

    it('tells of a flag, and of the status a person settles it to', async () => {
      await anEndpoint(database.db, { eventTypes: ['payment.flagged', 'payment.succeeded'] });
      await database.db
        .insertInto('transactions')
        .values(storedPayment('unknown-1', AT, { status: 'unknown' }))
        .execute();
      const row = (await findTransactionById(database.db, 'unknown-1'))!;
      await transact(database.db, (trx) => flag(writes(), trx, row, 'amount_mismatch', context));
      await clearFlag(database.db, 'unknown-1', {
        note: 'Seen on the M-PESA statement',
        status: 'success',
        now: new Date('2026-11-27T10:00:00.000Z'),
      });
      expect((await events()).map((event) => event.type)).toEqual([
        'payment.flagged',
        'payment.succeeded',
      ]);
    });
  });
}
