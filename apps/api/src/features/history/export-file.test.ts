/**
 * The export as a spreadsheet opens it, on each database: the byte-order mark, the header in
 * words naming the time zone, a time that reads back as the instant stored, a phone number kept
 * as text, a stranger's reference with a comma, a quote, a newline and a leading "=" kept whole
 * and never run, and a file name that says the filter.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { createTestApp } from '../../test/test-app.ts';
import { storedPayment } from '../../test/stored-payment.ts';

/** "Now": 2026-11-25 15:00 in Nairobi. */
const NOW = new Date('2026-11-25T12:00:00.000Z');
const PAID_AT = '2026-11-25T09:20:47.000Z';
const TRICKY = '=HYPERLINK("http://evil","x"), and\nmore';

/** RFC 4180 as a spreadsheet reads it: quoted cells may hold commas, "" and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let value = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      value += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted || (char !== ',' && char !== '\r')) {
      value += char;
    } else if (char === ',') {
      row.push(value);
      value = '';
    } else {
      // \r\n ends a record outside quotes.
      rows.push([...row, value]);
      row = [];
      value = '';
      i++;
    }
  }
  return rows;
}

for (const dialect of DIALECTS) {
  describe(`the export, as a spreadsheet opens it (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      ({ app } = await createTestApp({ database, now: () => NOW }));
      await database.db
        .insertInto('transactions')
        .values([
          storedPayment('tx-paid', PAID_AT, {
            reference: TRICKY,
            phone_number: '254712345678',
            amount: 1500,
            mpesa_receipt_number: 'UF1E26WQJZ',
            transaction_date: '2026-11-25T09:21:05.000Z',
          }),
          storedPayment('tx-failed', '2026-11-02T06:00:00.000Z', { status: 'failed' }),
        ])
        .execute();
    });
    afterEach(async () => {
      await app.close();
      await database.destroy();
    });

    const exported = async (query = '') => {
      const response = await app.inject({ url: `/api/mpesa/transactions/export${query}` });
      expect(response.statusCode).toBe(200);
      return response;
    };

    it('opens with a byte-order mark and a header in words that names the time zone', async () => {
      const response = await exported();
      expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const [header] = parseCsv(response.rawPayload.subarray(3).toString('utf8'));
      expect(header).toEqual([
        'Payment ID',
        'Created at (East Africa Time, UTC+03:00)',
        'Reference',
        'Description',
        'Phone number',
        'Amount (KES)',
        'Status',
        'M-PESA receipt',
        'M-PESA transaction time (East Africa Time, UTC+03:00)',
        'Result code',
        'Result description',
        'Paid through',
        "Payer's name",
        'Payment link',
      ]);
    });

    it('writes the header and how each payment came in Kiswahili for ?lang=sw, the rest and the file name as in English', async () => {
      const english = await exported('?status=success');
      const response = await exported('?status=success&lang=sw');
      expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const [header, ...rows] = parseCsv(response.rawPayload.subarray(3).toString('utf8'));
      expect(header).toEqual([
        'Kitambulisho cha malipo',
        'Tarehe ya kuundwa (Saa za Afrika Mashariki, UTC+03:00)',
        'Kumbukumbu',
        'Maelezo',
        'Nambari ya simu',
        'Kiasi (KES)',
        'Hali',
        'Risiti ya M-PESA',
        'Wakati wa muamala wa M-PESA (Saa za Afrika Mashariki, UTC+03:00)',
        'Msimbo wa matokeo',
        'Maelezo ya matokeo',
        'Njia ya malipo',
        'Jina la mlipaji',
        'Kiungo cha malipo',
      ]);
      // The same rows, but for how each payment came, said in the header's language.
      const inEnglish = parseCsv(english.rawPayload.subarray(3).toString('utf8')).slice(1);
      // (Paid through, then the payer's name and the payment link.)
      const without = (row: string[]) => [...row.slice(0, -3), ...row.slice(-2)];
      expect(rows.map(without)).toEqual(inEnglish.map(without));
      expect(inEnglish.map((row) => row.at(-3))).toEqual(rows.map(() => 'Prompt'));
      expect(rows.map((row) => row.at(-3))).toEqual(rows.map(() => 'Ombi'));
      expect(response.headers['content-disposition']).toBe(english.headers['content-disposition']);
    });

    it('refuses a language it does not write, in our shape', async () => {
      const response = await app.inject({ url: '/api/mpesa/transactions/export?lang=fr' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('lang must be en or sw'),
      });
    });

    it('writes times a spreadsheet reads as date-times, which read back as the instant stored', async () => {
      const [header, paid] = parseCsv((await exported()).body.slice(1));
      const at = (column: number) => {
        const zone = /UTC([+-]\d{2}:\d{2})\)$/.exec(header![column]!)![1];
        expect(paid![column]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        return new Date(`${paid![column]!.replace(' ', 'T')}${zone}`).toISOString();
      };
      expect(paid![1]).toBe('2026-11-25 12:20:47');
      expect(at(1)).toBe(PAID_AT);
      expect(at(8)).toBe('2026-11-25T09:21:05.000Z');
    });

    it('keeps the phone number as text, not a number a spreadsheet would round', async () => {
      const [, paid] = parseCsv((await exported()).body.slice(1));
      // Grouped by hyphens: no number in any locale, no formula, the same to a script.
      expect(paid![4]).toBe('254-712-345-678');
      expect(paid!.slice(5, 8)).toEqual(['1500', 'success', 'UF1E26WQJZ']);
    });

    it('keeps a reference with a comma, a quote and a line break whole, and never runs it', async () => {
      const rows = parseCsv((await exported()).body.slice(1));
      expect(rows).toHaveLength(3);
      expect(rows[1]![0]).toBe('tx-paid');
      expect(rows[1]![2]).toBe(`'${TRICKY}`);
      expect(rows[1]).toHaveLength(14);
    });

    it('names the file by its filter', async () => {
      const name = async (query: string) =>
        /^attachment; filename="([^"]+)"$/.exec(
          String((await exported(query)).headers['content-disposition']),
        )?.[1];
      expect(await name('')).toBe('payments-all-2026-11-25.csv');
      expect(await name('?status=success&from=2026-11-01&to=2026-11-25')).toBe(
        'payments-success-2026-11-01-to-2026-11-25.csv',
      );
      expect(await name('?q=0712345678&status=failed,success')).toBe(
        'payments-success-failed-search-2026-11-25.csv',
      );
      const filtered = await exported('?status=failed&from=2026-11-01&to=2026-11-02');
      expect(parseCsv(filtered.body.slice(1)).map((row) => row[0])).toEqual([
        'Payment ID',
        'tx-failed',
      ]);
    });
  });
}
