/**
 * The history with till and paybill payments and refunds in it: the channel filter on
 * its own and with status, days and search; `status=refunded` as any status; the figures counting
 * till and paybill payments and moving a refunded payment from collected to refunded; the CSV
 * saying how each came and who paid from the menu.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { NewTransactionRow } from '../../db/schema.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { createTestApp } from '../../test/test-app.ts';
import { DARAJA_NOT_CALLED } from '../../test/history-app.ts';
import { storedPayment } from '../../test/stored-payment.ts';

/** "Now": 2026-11-20 10:00 in Nairobi. */
const NOW = new Date('2026-11-20T07:00:00.000Z');

/** A till payment as the C2B confirmation records it: masked number, the payer's name. */
function tillPayment(fields: Partial<NewTransactionRow> = {}): Partial<NewTransactionRow> {
  return {
    channel: 'till',
    shortcode: '600100',
    payer_name: 'JANE W',
    payer_msisdn: '2547 ***** 126',
    phone_number: '2547 ***** 126',
    status: 'success',
    ...fields,
  };
}

for (const dialect of DIALECTS) {
  describe(`till, paybill and refunded payments in the history (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let serial = 0;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      ({ app } = await createTestApp({ database, daraja: DARAJA_NOT_CALLED, now: () => NOW }));
    });
    afterEach(async () => {
      await app.close();
      await database.destroy();
    });

    async function add(fields: Partial<NewTransactionRow> & { created_at: string }) {
      serial++;
      const id = fields.id ?? `tx-${String(serial).padStart(4, '0')}`;
      await database.db
        .insertInto('transactions')
        .values(storedPayment(id, fields.created_at, { reference: `INV-${serial}`, ...fields }))
        .execute();
      return id;
    }
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 6, minute)).toISOString();
    const list = async (query: string) => {
      const response = await app.inject({ url: `/api/mpesa/transactions${query}` });
      return { status: response.statusCode, body: response.json() };
    };
    const ids = async (query: string) =>
      (await list(query)).body.data.map((row: { _id: string }) => row._id);

    it('filters by one or several channels, alone and with status, days and search', async () => {
      const prompt = await add({ created_at: at(0), phone_number: '254712345678' });
      const till = await add({
        created_at: at(1),
        ...tillPayment({ mpesa_receipt_number: 'UKR1TILL01', reference: 'ACC-77' }),
      });
      const paybill = await add({
        created_at: at(2),
        ...tillPayment({ channel: 'paybill', shortcode: '600000', reference: 'ACC-78' }),
      });
      const refundedTill = await add({ created_at: at(3), ...tillPayment({ status: 'refunded' }) });
      const failedPrompt = await add({ created_at: at(4), status: 'failed' });
      const yesterdayTill = await add({ created_at: '2026-11-18T09:00:00.000Z', ...tillPayment() });

      expect(await ids('?channel=till')).toEqual([refundedTill, till, yesterdayTill]);
      expect(await ids('?channel=till,paybill')).toEqual([
        refundedTill,
        paybill,
        till,
        yesterdayTill,
      ]);
      expect(await ids('?channel=prompt&channel=paybill')).toEqual([failedPrompt, paybill, prompt]);
      expect(await ids('?channel=till&status=success')).toEqual([till, yesterdayTill]);
      expect(await ids('?channel=till,prompt&status=success,refunded')).toEqual([
        refundedTill,
        till,
        prompt,
        yesterdayTill,
      ]);
      expect(await ids('?channel=till&from=2026-11-20&to=2026-11-20')).toEqual([
        refundedTill,
        till,
      ]);
      // Search: a till payment by its receipt and by the account number the payer typed.
      expect(await ids('?q=ukr1till01')).toEqual([till]);
      expect(await ids('?q=ukr1till01&channel=paybill')).toEqual([]);
      expect(await ids('?q=ACC-7')).toEqual([paybill, till]);
      expect(await ids('?q=ACC-7&channel=till')).toEqual([till]);
      expect(await ids('?q=0712345678&channel=prompt')).toEqual([prompt]);
      expect(await ids('?q=0712345678&channel=till')).toEqual([]);
    });

    it('lists refunded payments as any status, and shows how each came', async () => {
      const refunded = await add({ created_at: at(0), status: 'refunded' });
      await add({ created_at: at(1), status: 'success' });
      expect(await ids('?status=refunded')).toEqual([refunded]);
      const till = await add({ created_at: at(2), ...tillPayment() });
      const { body } = await list('?channel=till');
      expect(body.data).toEqual([
        expect.objectContaining({ _id: till, channel: 'till', payerName: 'JANE W' }),
      ]);
      expect((await list('?status=refunded')).body.data[0]).toMatchObject({
        channel: 'prompt',
        payerName: null,
      });
    });

    it('pages through several channels and statuses without a repeat or a gap', async () => {
      const channels = ['prompt', 'till', 'paybill'] as const;
      const statuses = ['success', 'refunded', 'failed'] as const;
      const rows = Array.from({ length: 450 }, (_, i) => ({
        id: `row-${String(i).padStart(4, '0')}`,
        // Three rows to an instant, so that pages break inside ties.
        created_at: new Date(Date.UTC(2026, 10, 1) + Math.floor(i / 3) * 60_000).toISOString(),
        channel: channels[i % 3]!,
        status: statuses[Math.floor(i / 3) % 3]!,
      }));
      await database.db
        .insertInto('transactions')
        .values(rows.map((row) => storedPayment(row.id, row.created_at, row)))
        .execute();
      const walk = async (query: string) => {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const answer = await list(`?limit=20&${query}${cursor ? `&cursor=${cursor}` : ''}`);
          expect(answer.status).toBe(200);
          seen.push(...answer.body.data.map((row: { _id: string }) => row._id));
          cursor = answer.body.nextCursor;
        } while (cursor);
        return seen;
      };
      const expected = (keep: (row: (typeof rows)[number]) => boolean) =>
        rows
          .filter(keep)
          .sort((a, b) =>
            a.created_at === b.created_at
              ? b.id.localeCompare(a.id)
              : b.created_at.localeCompare(a.created_at),
          )
          .map((row) => row.id);
      expect(await walk('channel=till,paybill')).toEqual(
        expected((row) => row.channel !== 'prompt'),
      );
      expect(await walk('channel=till,paybill&status=success,refunded')).toEqual(
        expected((row) => row.channel !== 'prompt' && row.status !== 'failed'),
      );
    });

    it('refuses a channel it does not know, naming the parameter', async () => {
      expect(await list('?channel=cash')).toMatchObject({
        status: 400,
        body: {
          success: false,
          message: 'channel must be one or more of prompt, till, paybill (got "cash")',
        },
      });
    });

    describe('the figures at a glance', () => {
      const figures = async () => (await app.inject({ url: '/api/mpesa/summary' })).json().data;

      it('counts till and paybill payments as any payment, and a refund moves one from collected to refunded', async () => {
        const prompt = await add({ created_at: at(0), amount: 500 });
        await add({ created_at: at(1), amount: 250, ...tillPayment() });
        await add({ created_at: at(2), amount: 100, ...tillPayment({ channel: 'paybill' }) });
        await add({ created_at: at(3), amount: 90, status: 'cancelled' });
        const before = await figures();
        expect(before.today).toEqual({
          collected: 850,
          refunded: 0,
          refundedCount: 0,
          count: 4,
          pendingCount: 0,
          successCount: 3,
          successRate: 3 / 4,
        });
        expect(before.daily[13].byStatus).toEqual(
          expect.arrayContaining([{ status: 'success', count: 3, amount: 850 }]),
        );

        // The refunds service marks the payment refunded once M-PESA has reversed it.
        await database.db
          .updateTable('transactions')
          .set({ status: 'refunded' })
          .where('id', '=', prompt)
          .execute();
        const after = await figures();
        const refundedToday = {
          collected: 350,
          refunded: 500,
          refundedCount: 1,
          count: 4,
          pendingCount: 0,
          // Paid all the same: the rate of paid payments does not fall when money goes back.
          successCount: 3,
          successRate: 3 / 4,
        };
        expect(after.today).toEqual(refundedToday);
        expect(after.last7Days).toEqual(refundedToday);
        expect(after.daily[13].byStatus).toEqual(
          expect.arrayContaining([
            { status: 'success', count: 2, amount: 350 },
            { status: 'refunded', count: 1, amount: 500 },
            { status: 'cancelled', count: 1, amount: 90 },
          ]),
        );
      });
    });

    it('exports how each payment came and the name of who paid from the menu', async () => {
      await add({ created_at: at(0), mpesa_receipt_number: 'UKR1PROMPT' });
      await add({
        created_at: at(1),
        ...tillPayment({ status: 'refunded', payer_name: '=HYPERLINK("http://evil")' }),
      });
      await add({ created_at: at(2), ...tillPayment({ channel: 'paybill', payer_name: 'JOHN' }) });
      const exported = async (query: string) => {
        const response = await app.inject({ url: `/api/mpesa/transactions/export${query}` });
        expect(response.statusCode).toBe(200);
        return response.body.split('\r\n').filter(Boolean);
      };
      const [header, paybill, till, prompt] = await exported('');
      expect(header).toMatch(/,Result description,Paid through,Payer's name,Payment link$/);
      expect(paybill).toMatch(/,2547 \*\*\*\*\* 126,100,success,.*,Paybill,JOHN,$/);
      // A name that would run as a formula is neutralised as references are.
      expect(till).toMatch(/,refunded,.*,Till,"'=HYPERLINK\(""http:\/\/evil""\)",$/);
      expect(prompt).toMatch(/,UKR1PROMPT,.*,Prompt,,$/);
      const inKiswahili = await exported('?channel=prompt,paybill&lang=sw');
      expect(inKiswahili[0]).toMatch(/,Njia ya malipo,Jina la mlipaji,Kiungo cha malipo$/);
      expect(inKiswahili.slice(1).map((line) => line.split(',').at(-3))).toEqual([
        'Paybill',
        'Ombi',
      ]);
    });
  });
}
