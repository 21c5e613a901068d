/**
 * A payment link's payments wherever they come from, on both databases: a till or paybill payment
 * whose account reference is a link's (typed by the payer in any case, or carried by the link's
 * M-PESA QR code) shows against the link; a payment through a link, paid by prompt or from the
 * menu, is told as `link.paid` beside its own event, with the link's id in the payment.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookEventBody } from '@mpesa/shared/contract-webhooks';
import { recordC2bPayment } from '../c2b/c2b-payments.service.ts';
import { tellOfPayment } from '../payments/index.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { anEndpoint } from '../../test/webhooks.fixtures.ts';
import { linkOfReference } from './link-of-reference.ts';

const MADE = '2026-11-29T08:00:00.000Z';
const PAID = '2026-11-29T09:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`a payment link's payments (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      for (const [id, created_at] of [
        ['link-old', '2026-11-01T08:00:00.000Z'],
        ['link-new', MADE],
      ] as const) {
        await database.db
          .insertInto('payment_links')
          .values({
            id,
            code: `code${id.slice(5).padEnd(8, 'x')}`,
            amount: 1500,
            min_amount: null,
            purpose: 'Kitenge dress',
            reference: 'ORDER-77',
            one_only: 1,
            expires_at: null,
            switched_off_at: null,
            switched_off_by: null,
            created_by: 'Baraka',
            created_by_id: 'cashier',
            created_at,
          })
          .execute();
      }
    });
    afterEach(() => database.destroy());

    const events = async () =>
      (await database.db.selectFrom('webhook_events').select('body').orderBy('id').execute()).map(
        (row) => JSON.parse(row.body) as WebhookEventBody,
      );
    const paybill = (receipt: string, reference: string) =>
      recordC2bPayment(
        database.db,
        {
          channel: 'paybill',
          receipt,
          amount: 1500,
          shortcode: '600000',
          reference,
          transactionDate: PAID,
          payerName: 'JOHN',
          payerMsisdn: '2547 ***** 126',
        },
        { kind: 'c2b_confirmed', at: PAID },
      );

    it('finds the newest link made before the payment by its reference, in any case', async () => {
      expect(await linkOfReference(database.db, ' order-77 ', PAID)).toBe('link-new');
      // Paid before the newer link was made: the older one's.
      expect(await linkOfReference(database.db, 'ORDER-77', '2026-11-20T00:00:00.000Z')).toBe(
        'link-old',
      );
      expect(await linkOfReference(database.db, 'ORDER-78', PAID)).toBeNull();
      expect(await linkOfReference(database.db, '', PAID)).toBeNull();
    });

    it('puts a paybill payment made for a link against it, told as received and as the link paid', async () => {
      await anEndpoint(database.db, { eventTypes: ['payment.received', 'link.paid'] });
      const { transactionId } = await paybill('UAB1C2D3E4', 'order-77');
      const stored = await database.db
        .selectFrom('transactions')
        .select('link_id')
        .where('id', '=', transactionId)
        .executeTakeFirstOrThrow();
      expect(stored.link_id).toBe('link-new');
      expect((await events()).map((event) => [event.type, event.data])).toEqual([
        ['payment.received', { payment: expect.objectContaining({ linkId: 'link-new' }) }],
        ['link.paid', { payment: expect.objectContaining({ linkId: 'link-new' }) }],
      ]);
      // One not for a link is told only as received.
      await paybill('UAB1C2D3E5', 'ACC-1');
      expect((await events()).map((event) => event.type)).toEqual([
        'payment.received',
        'link.paid',
        'payment.received',
      ]);
    });

    it('tells of a prompt paid through a link as the link paid too, to whoever wants only that', async () => {
      await anEndpoint(database.db, { eventTypes: ['link.paid'] });
      await database.db
        .insertInto('transactions')
        .values([
          { ...storedPayment('through-link', PAID), link_id: 'link-new' },
          storedPayment('plain', PAID),
        ])
        .execute();
      await tellOfPayment(database.db, 'payment.succeeded', 'through-link', PAID);
      await tellOfPayment(database.db, 'payment.succeeded', 'plain', PAID);
      // A failure through a link tells nothing of the link.
      await tellOfPayment(database.db, 'payment.failed', 'through-link', PAID);
      const told = await events();
      expect(told.map((event) => event.type)).toEqual(['link.paid']);
      expect(told[0]!.data).toEqual({
        payment: expect.objectContaining({ _id: 'through-link', linkId: 'link-new' }),
      });
    });
  });
}
