/**
 * The history's search as a shop owner types it (issue 35): a reference by its start in any letter
 * case, a phone number by its last four digits or more, both at once when digits could be either;
 * and what a stranger types (overlong, wildcards, quotes, unicode) answered without a 500 and
 * without matching everything.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/test-db.ts';
import { historyApp } from '../../test/history-app.ts';
import { lowerCaseAtoZ } from './history.repository.ts';
import { PHONE_ENDING_MIN_DIGITS } from './history.service.ts';

for (const dialect of DIALECTS) {
  describe(`the history's search (${dialect})`, () => {
    const history = historyApp(dialect);
    const { add } = history;
    const list = async (q: string, more = '') => {
      const response = await history.app.inject({
        url: `/api/mpesa/transactions?q=${encodeURIComponent(q)}${more}`,
      });
      return { status: response.statusCode, body: response.json() };
    };
    const ids = async (q: string, more = '') => {
      const answer = await list(q, more);
      expect(answer.status).toBe(200);
      return answer.body.data.map((row: { _id: string }) => row._id);
    };

    it('finds a reference by its start, whatever the letter case', async () => {
      await add('sukari-2kg', { reference: 'Sukari 2kg' });
      await add('sukari-loud', { reference: 'SUKARI-5' });
      await add('sukari-quiet', { reference: 'sukari' });
      await add('unga', { reference: 'Unga' });
      const sukari = ['sukari-quiet', 'sukari-loud', 'sukari-2kg'];
      expect(await ids('sukari')).toEqual(sukari);
      expect(await ids('SUKARI')).toEqual(sukari);
      expect(await ids('sUkArI 2')).toEqual(['sukari-2kg']);
      // The start of a reference, not any part of it.
      expect(await ids('ukari')).toEqual([]);
      expect(await ids('2kg')).toEqual([]);
    });

    it('changes the case of A to Z only, as both databases do, and keeps other letters as typed', async () => {
      await add('ecole', { reference: 'École-1' });
      await add('uji', { reference: 'Ünga-Uji' });
      expect(await ids('École')).toEqual(['ecole']);
      expect(await ids('ÉCOLE')).toEqual(['ecole']);
      expect(await ids('ünga')).toEqual([]);
      expect(await ids('Ünga-uJI')).toEqual(['uji']);
      expect(lowerCaseAtoZ('ÉCOLE Ünga ß İ')).toBe('École Ünga ß İ');
    });

    it('finds a receipt typed in lower case', async () => {
      await add('paid', { mpesa_receipt_number: 'QKJ1A2B3C4', reference: 'Sukari' });
      expect(await ids('qkj1a2b3c4')).toEqual(['paid']);
      expect(await ids('QKJ1a2b3c4')).toEqual(['paid']);
    });

    it('finds a phone number by its last four digits or more', async () => {
      await add('a', { phone_number: '254700000001' });
      await add('b', { phone_number: '254711110001' });
      await add('c', { phone_number: '254722223333' });
      // Masked by PHONE_RETENTION_DAYS: the mask keeps the last four digits, which the history
      // shows, and which find it.
      await add('masked', { phone_number: '254*****0001' });
      // A till payment's number as M-PESA gives it, masked with three digits left: none to find.
      await add('till', { phone_number: '2547 ***** 001', channel: 'till' });
      expect(await ids('0001')).toEqual(['masked', 'b', 'a']);
      expect(await ids('10001')).toEqual(['b']);
      expect(await ids('00000001')).toEqual(['a']);
      expect(await ids('22223333')).toEqual(['c']);
      expect(await ids('3333', '&status=failed')).toEqual([]);
      expect(await ids('3333', '&status=success')).toEqual(['c']);
      // A whole number is that number, as before: 700000001 and 254711110001 are written whole.
      expect(await ids('700000001')).toEqual(['a']);
      expect(await ids('254711110001')).toEqual(['b']);
      // Longer than any number: nothing.
      expect(await ids('1'.repeat(40))).toEqual([]);
    });

    it('finds digits at the end of a number and at the start of a reference or a receipt alike, each once, in pages', async () => {
      await add('phone', { phone_number: '254700002026' });
      await add('invoice', { reference: '2026-0042' });
      await add('both', { phone_number: '254711112026', reference: '2026-0043' });
      await add('receipt', { mpesa_receipt_number: '2026' });
      await add('neither', { reference: 'INV-2026' });
      expect(await ids('2026')).toEqual(['receipt', 'both', 'invoice', 'phone']);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof list>> = await list(
          '2026',
          `&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        );
        seen.push(...page.body.data.map((row: { _id: string }) => row._id));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(['receipt', 'both', 'invoice', 'phone']);
    });

    it(`looks for fewer than ${PHONE_ENDING_MIN_DIGITS} digits in references and receipts only`, async () => {
      await add('phone', { phone_number: '254700000001' });
      await add('invoice', { reference: '001-A' });
      await add('receipt', { mpesa_receipt_number: '001' });
      expect(await ids('001')).toEqual(['receipt', 'invoice']);
      expect(await ids('01')).toEqual([]);
      expect(await ids('0')).toEqual(['invoice']);
    });

    it('exports what the search finds', async () => {
      await add('phone', { phone_number: '254700000001' });
      await add('invoice', { reference: 'sukari-0001' });
      await add('other', { phone_number: '254700000002', reference: 'Unga' });
      for (const q of ['0001', 'SUKARI']) {
        const response = await history.app.inject({
          url: `/api/mpesa/transactions/export?q=${q}`,
        });
        expect(response.statusCode).toBe(200);
        const rows = response.body.split('\r\n').filter(Boolean).slice(1);
        const exported = rows.map((line) => line.split(',')[0]);
        expect(exported).toEqual(await ids(q));
      }
    });

    describe('what a stranger types', () => {
      beforeEach(async () => {
        await add('percent', { reference: '%OFF' });
        await add('underscore', { reference: '_x' });
        await add('quote', { reference: "O'Brien" });
        await add('double-quote', { reference: '"Quoted"' });
        await add('backslash', { reference: '\\path' });
        await add('emoji', { reference: '🙂 gift' });
        await add('last', { reference: '\u{10FFFF}end' });
        await add('plain', { reference: 'INV-1', phone_number: '254712345678' });
      });

      it.each([
        ['%', ['percent']],
        ['%%', []],
        ['_', ['underscore']],
        ['_%', []],
        ["o'brien", ['quote']],
        ["' or '1'='1", []],
        ["'; drop table transactions; --", []],
        ['"quoted', ['double-quote']],
        ['\\', ['backslash']],
        ['\\%', []],
        ['🙂', ['emoji']],
        ['\u{10FFFF}', ['last']],
        ['*', []],
        ['*****', []],
        ['x'.repeat(100), []],
        ['9'.repeat(100), []],
        ['é'.repeat(100), []],
        ['🙂'.repeat(100), []],
        ['\u0000', []],
        ['\u0000\u0001%', []],
        ['\u202e', []],
        ['\ufffd', []],
      ])('q=%j is answered with exactly what it names', async (q, expected) => {
        expect(await ids(q)).toEqual(expected);
        const response = await history.app.inject({
          url: `/api/mpesa/transactions/export?q=${encodeURIComponent(q)}`,
        });
        expect(response.statusCode).toBe(200);
        expect(response.body.split('\r\n').filter(Boolean)).toHaveLength(1 + expected.length);
      });

      it.each([
        // Bytes that are not UTF-8, a lone surrogate's bytes, a broken escape, a NUL.
        '%FF%FE',
        '%ED%A0%80',
        '%E2%82',
        '%',
        '%zz',
        '%00',
        '%25%00',
        // Said twice, or as a list.
        'a&q=b',
        '0001&q[]=x',
      ])('answers ?q=%s without a 500 and without matching everything', async (raw) => {
        for (const url of ['/api/mpesa/transactions', '/api/mpesa/transactions/export']) {
          const response = await history.app.inject({ url: `${url}?q=${raw}` });
          expect([200, 400]).toContain(response.statusCode);
          if (response.statusCode === 400) {
            expect(response.json()).toMatchObject({ success: false, message: expect.any(String) });
          } else if (url.endsWith('export')) {
            expect(response.body.split('\r\n').filter(Boolean).length).toBeLessThan(1 + 8);
          } else {
            expect(response.json().data.length).toBeLessThan(8);
          }
        }
      });

      it('refuses a search longer than 100 characters, in any script, with a 400', async () => {
        for (const q of ['9'.repeat(101), 'é'.repeat(101), '🙂'.repeat(101)]) {
          const answer = await list(q);
          expect(answer.status).toBe(400);
          expect(answer.body).toMatchObject({
            success: false,
            message: 'q must be at most 100 characters',
          });
        }
      });
    });
  });
}
