/**
 * The history's pages and filters, as a merchant with many payments uses them: keyset pages that neither repeat nor skip rows, also
 * while payments arrive; status, date and search filters; every bad parameter named in a 400.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { NewTransactionRow } from '../../db/schema.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { createTestApp } from '../../test/test-app.ts';
import { DARAJA_NOT_CALLED } from '../../test/history-app.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { PREFIX_SCAN_ROWS, PREFIX_SORT_LIMIT, prefixEnd } from './history.repository.ts';
import { encodeCursor } from '../../db/list-cursor.ts';

for (const dialect of DIALECTS) {
  describe(`the history (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let serial = 0;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      ({ app } = await createTestApp({ database, daraja: DARAJA_NOT_CALLED }));
    });
    afterEach(async () => {
      await app.close();
      await database.destroy();
    });

    /** A payment as the history would hold it. */
    async function add(fields: Partial<NewTransactionRow> & { created_at: string }) {
      serial++;
      const id = fields.id ?? `tx-${String(serial).padStart(4, '0')}`;
      await database.db
        .insertInto('transactions')
        .values(
          storedPayment(id, fields.created_at, {
            reference: `INV-${serial}`,
            phone_number: '254712345678',
            ...fields,
          }),
        )
        .execute();
      return id;
    }
    const list = async (query: string) => {
      const response = await app.inject({ url: `/api/mpesa/transactions${query}` });
      return { status: response.statusCode, body: response.json() };
    };
    const ids = async (query: string) =>
      (await list(query)).body.data.map((row: { _id: string }) => row._id);

    it('pages newest first by cursor, with ties on the instant neither repeated nor skipped', async () => {
      const same = '2026-11-20T10:00:00.000Z';
      const expected = [
        await add({ created_at: '2026-11-20T09:00:00.000Z' }),
        await add({ created_at: same, id: 'tx-b' }),
        await add({ created_at: same, id: 'tx-a' }),
        await add({ created_at: same, id: 'tx-c' }),
        await add({ created_at: '2026-11-20T11:00:00.000Z' }),
      ];
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        seen.push(...page.body.data.map((row: { _id: string }) => row._id));
        cursor = page.body.nextCursor;
        pages++;
        // A payment arriving between pages sorts before every cursor: it changes no later page.
        if (pages === 1) await add({ created_at: '2026-11-21T00:00:00.000Z', id: 'tx-new' });
      } while (cursor);
      expect(pages).toBe(3);
      // Newest first; on the same instant, by id.
      expect(seen).toEqual([expected[4], 'tx-c', 'tx-b', 'tx-a', expected[0]]);
    });

    it('gives 50 rows by default and at most 200, and no next page after the last', async () => {
      for (let i = 0; i < 51; i++) {
        await add({ created_at: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString() });
      }
      const first = await list('');
      expect(first.body.data).toHaveLength(50);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const last = await list(`?cursor=${first.body.nextCursor}`);
      expect(last.body.data).toHaveLength(1);
      expect(last.body.nextCursor).toBeNull();
      expect((await list('?limit=200')).body.nextCursor).toBeNull();
      expect(await list('?limit=201')).toMatchObject({
        status: 400,
        body: { success: false, message: 'limit must be at most 200' },
      });
    });

    it('filters by one or several statuses', async () => {
      const paid = await add({ created_at: '2026-11-20T09:00:00.000Z', status: 'success' });
      const cancelled = await add({ created_at: '2026-11-20T09:01:00.000Z', status: 'cancelled' });
      await add({ created_at: '2026-11-20T09:02:00.000Z', status: 'failed' });
      expect(await ids('?status=success')).toEqual([paid]);
      expect(await ids('?status=success,cancelled')).toEqual([cancelled, paid]);
      expect(await ids('?status=success&status=cancelled')).toEqual([cancelled, paid]);
    });

    it('filters by business days in Nairobi, both ends included', async () => {
      const octoberEvening = await add({ created_at: '2026-10-31T20:59:59.999Z' });
      const novemberFirst = await add({ created_at: '2026-10-31T21:00:00.000Z' });
      const novemberSecond = await add({ created_at: '2026-11-02T20:59:59.999Z' });
      await add({ created_at: '2026-11-02T21:00:00.000Z' });
      expect(await ids('?from=2026-11-01&to=2026-11-02')).toEqual([novemberSecond, novemberFirst]);
      expect(await ids('?to=2026-10-31')).toEqual([octoberEvening]);
    });

    it('finds a phone number written any accepted way, and a receipt or the start of a reference in any case', async () => {
      const mine = await add({
        created_at: '2026-11-20T09:00:00.000Z',
        phone_number: '254712345678',
      });
      await add({ created_at: '2026-11-20T09:01:00.000Z', phone_number: '254722000000' });
      for (const q of ['0712 345-678', '+254712345678', '712345678', '254712345678']) {
        expect(await ids(`?q=${encodeURIComponent(q)}`)).toEqual([mine]);
      }
      const receipt = await add({
        created_at: '2026-11-20T09:02:00.000Z',
        mpesa_receipt_number: 'UF1E26WQJZ',
        phone_number: '254799000000',
      });
      expect(await ids('?q=uf1e26wqjz')).toEqual([receipt]);
      const invoice = await add({
        created_at: '2026-11-20T09:03:00.000Z',
        reference: 'SHOP-2026-0042',
        phone_number: '254799000001',
      });
      expect(await ids('?q=SHOP-2026')).toEqual([invoice]);
      expect(await ids('?q=shop-2026')).toEqual([invoice]);
      const café = await add({
        created_at: '2026-11-20T09:04:00.000Z',
        reference: 'Café-1',
        phone_number: '254799000002',
      });
      // The é typed as e and a combining accent, as some keyboards send it.
      expect(await ids(`?q=${encodeURIComponent('Cafe\u0301')}`)).toEqual([café]);
    });

    it('pages through several statuses and through searches, few matches or many, without a repeat or a gap', async () => {
      // More matches for "INV-" than the reference index is sorted for, fewer for "INV-1"; and
      // after them, more payments than the newest rows looked through for a common prefix, so that
      // the INV- matches are found by sorting them too. Every row has the same phone number, so
      // its last digits are a common prefix of the reversed numbers' index.
      const statuses = ['success', 'failed', 'cancelled', 'timeout'] as const;
      const invoices = PREFIX_SORT_LIMIT + 600;
      const rows = Array.from({ length: invoices + PREFIX_SCAN_ROWS }, (_, i) => ({
        id: `row-${String(i).padStart(5, '0')}`,
        // Three rows to an instant, so that pages break inside ties.
        created_at: new Date(Date.UTC(2026, 10, 1) + Math.floor(i / 3) * 60_000).toISOString(),
        status: statuses[i % 4]!,
        reference: i % 10 === 9 || i >= invoices ? 'Payment' : `INV-${i}`,
        mpesa_receipt_number: i % 4 === 0 ? `RCP${String(i).padStart(7, '0')}` : null,
      }));
      rows.push({ ...rows[0]!, id: 'row-receipt', mpesa_receipt_number: 'QK12' });
      rows.push({ ...rows[0]!, id: 'row-reference', reference: 'QK12-A' });
      for (let i = 0; i < rows.length; i += 1000) {
        await database.db
          .insertInto('transactions')
          .values(
            rows.slice(i, i + 1000).map((row) => ({
              ...row,
              description: 'Goods',
              phone_number: '254712345678',
              amount: 10,
              updated_at: row.created_at,
            })),
          )
          .execute();
      }
      const newestFirst = [...rows].sort((a, b) =>
        a.created_at === b.created_at
          ? b.id.localeCompare(a.id)
          : b.created_at.localeCompare(a.created_at),
      );
      async function walk(query: string) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const answer = await list(`?limit=200&${query}${cursor ? `&cursor=${cursor}` : ''}`);
          expect(answer.status).toBe(200);
          seen.push(...answer.body.data.map((row: { _id: string }) => row._id));
          cursor = answer.body.nextCursor;
        } while (cursor);
        return seen;
      }
      const expected = (keep: (row: (typeof rows)[number]) => boolean) =>
        newestFirst.filter(keep).map((row) => row.id);
      const several = expected((row) => row.status === 'failed' || row.status === 'cancelled');
      expect(await walk('status=failed,cancelled')).toEqual(several);
      const inv = expected((row) => row.reference.startsWith('INV-'));
      expect(inv.length).toBeGreaterThan(PREFIX_SORT_LIMIT);
      expect(await walk('q=INV-')).toEqual(inv);
      expect(await walk('q=inv-&status=success,timeout')).toEqual(
        expected(
          (row) =>
            row.reference.startsWith('INV-') &&
            (row.status === 'success' || row.status === 'timeout'),
        ),
      );
      const inv1 = expected((row) => row.reference.startsWith('INV-1'));
      expect(inv1.length).toBeLessThan(PREFIX_SORT_LIMIT);
      expect(await walk('q=INV-1')).toEqual(inv1);
      expect(await walk('q=INV-1&status=failed')).toEqual(
        expected((row) => row.reference.startsWith('INV-1') && row.status === 'failed'),
      );
      expect(await walk('q=QK12')).toEqual(['row-reference', 'row-receipt']);
      expect(await walk('q=qk12')).toEqual(['row-reference', 'row-receipt']);
      expect(await walk('q=inv-1&status=failed')).toEqual(
        expected((row) => row.reference.startsWith('INV-1') && row.status === 'failed'),
      );
      expect(await walk('q=5678&status=timeout')).toEqual(
        expected((row) => row.status === 'timeout'),
      );
      expect(await walk('q=rcp0000004')).toEqual(['row-00004']);
      expect(await walk('q=Payment&status=timeout')).toEqual(
        expected((row) => row.reference === 'Payment' && row.status === 'timeout'),
      );
    });

    it.each([
      [
        '?status=paid',
        /^status must be one or more of pending, success, failed, cancelled, timeout, unknown, refunded \(got "paid"\)$/,
      ],
      ['?from=2026-13-01', /^from must be a date written YYYY-MM-DD/],
      ['?from=2026-02-30', /^from must be a date written YYYY-MM-DD/],
      ['?to=yesterday', /^to must be a date written YYYY-MM-DD/],
      ['?from=2026-11-02&to=2026-11-01', /^from must not be after to$/],
      ['?cursor=forged', /^cursor is not one this server gave/],
      [
        `?cursor=${encodeCursor({ createdAt: "2026-11-01'; drop table x", id: 'x' })}`,
        /^cursor is not one/,
      ],
      [`?cursor=${'A'.repeat(5000)}`, /^cursor is not one/],
      [`?q=${'9'.repeat(101)}`, /^q must be at most 100 characters$/],
      ['?q=a&q=b', /^q must be given once$/],
      ['?from=2026-11-01&from=2026-11-02', /^from must be given once$/],
      ['?cursor=a&cursor=b', /^cursor must be given once$/],
    ])('refuses %s with a 400 that names the parameter', async (query, message) => {
      const answer = await list(query);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        success: false,
        message: expect.stringMatching(message),
      });
    });

    it('answers an empty result as an empty last page', async () => {
      expect((await list('?status=unknown')).body).toEqual({
        success: true,
        data: [],
        nextCursor: null,
      });
    });

    describe('the CSV export', () => {
      const exported = async (query = '') => {
        const response = await app.inject({ url: `/api/mpesa/transactions/export${query}` });
        return { response, lines: response.body.split('\r\n').filter(Boolean) };
      };

      it('streams every selected row, newest first, with a header, numbers and times in Nairobi', async () => {
        for (let i = 0; i < 2500; i++) {
          await add({
            created_at: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
            amount: i + 1,
            status: i % 2 === 0 ? 'success' : 'failed',
          });
        }
        const { response, lines } = await exported('?status=success');
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(response.headers['content-disposition']).toMatch(
          /^attachment; filename="payments-success-\d{4}-\d{2}-\d{2}\.csv"$/,
        );
        expect(lines[0]).toBe(
          '\uFEFFPayment ID,"Created at (East Africa Time, UTC+03:00)",Reference,Description,' +
            'Phone number,Amount (KES),Status,M-PESA receipt,' +
            '"M-PESA transaction time (East Africa Time, UTC+03:00)",Result code,Result description,' +
            "Paid through,Payer's name,Payment link",
        );
        expect(lines).toHaveLength(1 + 1250);
        // The newest success (i = 2498) at 00:41:38 UTC, 03:41:38 in Nairobi; the oldest, i = 0.
        expect(lines[1]).toMatch(
          /^tx-\d+,2026-11-01 03:41:38,INV-\d+,Payment for services,254-712-345-678,2499,success,,,,,Prompt,,$/,
        );
        expect(lines.at(-1)).toMatch(/^tx-\d+,2026-11-01 03:00:00,INV-\d+,.*,1,success,/);
      });

      it('neutralises cells a spreadsheet would run as formulas, and quotes what needs quoting', async () => {
        await add({
          created_at: '2026-11-20T09:00:00.000Z',
          reference: '=HYPERLINK("http://evil","x")',
          description: '+254, "quoted"\nnext line',
        });
        await add({ created_at: '2026-11-20T09:01:00.000Z', reference: '-5', description: '@sum' });
        // Full-width look-alikes, as stored and read back (history-csv.test.ts has the rest).
        await add({
          created_at: '2026-11-20T09:02:00.000Z',
          reference: '＝1+1',
          description: '＠x',
        });
        const { lines } = await exported();
        expect(lines[3]).toContain(`"'=HYPERLINK(""http://evil"",""x"")","'+254, ""quoted""`);
        expect(lines[2]).toContain(`,'-5,'@sum,`);
        expect(lines[1]).toContain(`,'＝1+1,'＠x,`);
      });

      it('refuses a bad filter with a 400 in our shape, not a broken file', async () => {
        const { response } = await exported('?status=paid');
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          success: false,
          message: expect.stringMatching(/^status/),
        });
      });
    });

    describe('the figures at a glance', () => {
      it('counts today and the last 7 business days in Nairobi, and 14 days by status', async () => {
        // "Now" is 2026-11-20 10:00 in Nairobi (07:00 UTC); today began at 2026-11-19T21:00Z.
        await app.close();
        ({ app } = await createTestApp({
          database,
          daraja: DARAJA_NOT_CALLED,
          now: () => new Date('2026-11-20T07:00:00.000Z'),
        }));
        await add({ created_at: '2026-11-19T21:00:00.000Z', status: 'success', amount: 500 });
        await add({ created_at: '2026-11-20T06:00:00.000Z', status: 'success', amount: 250 });
        await add({ created_at: '2026-11-20T06:30:00.000Z', status: 'cancelled', amount: 90 });
        await add({ created_at: '2026-11-20T06:59:00.000Z', status: 'pending', amount: 40 });
        // Yesterday evening in Nairobi, though the same UTC date as today's first payment.
        await add({ created_at: '2026-11-19T20:59:59.999Z', status: 'success', amount: 1000 });
        // Six days ago (in the 7) and seven days ago (not in the 7, in the 14); 14 days ago: out.
        await add({ created_at: '2026-11-14T09:00:00.000Z', status: 'failed', amount: 70 });
        await add({ created_at: '2026-11-13T09:00:00.000Z', status: 'success', amount: 3000 });
        await add({ created_at: '2026-11-06T09:00:00.000Z', status: 'success', amount: 9999 });

        const answer = await app.inject({ url: '/api/mpesa/summary' });
        expect(answer.statusCode).toBe(200);
        const { data } = answer.json();
        expect(data.timeZone).toBe('Africa/Nairobi');
        expect(data.today).toEqual({
          collected: 750,
          refunded: 0,
          refundedCount: 0,
          count: 4,
          pendingCount: 1,
          successCount: 2,
          successRate: 2 / 3,
        });
        expect(data.last7Days).toEqual({
          collected: 1750,
          refunded: 0,
          refundedCount: 0,
          count: 6,
          pendingCount: 1,
          successCount: 3,
          successRate: 3 / 5,
        });
        expect(data.daily).toHaveLength(14);
        expect(data.daily[0].day).toBe('2026-11-07');
        expect(data.daily[13]).toEqual({
          day: '2026-11-20',
          byStatus: expect.arrayContaining([
            { status: 'success', count: 2, amount: 750 },
            { status: 'cancelled', count: 1, amount: 90 },
            { status: 'pending', count: 1, amount: 40 },
          ]),
        });
        expect(data.daily.find((d: { day: string }) => d.day === '2026-11-13').byStatus).toEqual([
          { status: 'success', count: 1, amount: 3000 },
        ]);
      });
    });
  });
}

describe('a reference prefix as a range', () => {
  it('ends at the least string above every string that starts with it', () => {
    expect(prefixEnd('INV-12')).toBe('INV-13');
    expect(prefixEnd('a\u{10FFFF}')).toBe('b');
    expect(prefixEnd('\u{10FFFF}')).toBeNull();
    expect(prefixEnd('\uD7FF')).toBe('\uE000');
    expect(prefixEnd('')).toBeNull();
  });
});
