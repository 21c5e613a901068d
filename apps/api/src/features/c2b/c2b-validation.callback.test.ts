/**
 * The C2B validation route answers M-PESA in time whatever the database does (docs/daraja-
 * protocol.md §M3.4): with the database gone it answers what the registered ResponseType would
 * make M-PESA do anyway, and with validation off it takes every payment. On each database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { TEST_CALLBACK_SECRET, createTestApp } from '../../test/test-app.ts';

const VALIDATION_PATH = `/api/c2b/${TEST_CALLBACK_SECRET}/validation`;
const BODY = JSON.stringify({
  TransactionType: 'Pay Bill',
  TransID: 'UKQ1VALID1',
  TransTime: '20261127101500',
  TransAmount: '100.00',
  BusinessShortCode: '600100',
  BillRefNumber: 'INV-1',
  OrgAccountBalance: '',
  MSISDN: '2547 ***** 149',
  FirstName: 'John',
  LastName: 'Doe',
});

for (const dialect of DIALECTS) {
  describe(`the C2B validation answer (${dialect})`, () => {
    let database: TestDatabase | undefined;
    let app: FastifyInstance | undefined;
    afterEach(async () => {
      await app?.close();
      await database?.destroy().catch(() => undefined);
    });

    async function ask(env: Record<string, string>, databaseGone = false, payload = BODY) {
      database = await createTestDatabase(dialect);
      ({ app } = await createTestApp({ database, env }));
      if (databaseGone) {
        await database.db.destroy();
        // Gone indeed: nothing the app asks of it can be answered.
        await expect(database.db.selectFrom('callbacks').selectAll().execute()).rejects.toThrow();
      }
      const started = Date.now();
      const answer = await app.inject({
        method: 'POST',
        url: VALIDATION_PATH,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(answer.statusCode).toBe(200);
      return answer.json();
    }

    it.each([
      ['Completed', { ResultCode: '0', ResultDesc: 'Accepted' }],
      ['Cancelled', { ResultCode: 'C2B00016', ResultDesc: 'Rejected' }],
    ])('answers as ResponseType %s would when the database is gone', async (type, verdict) => {
      const env = { MPESA_C2B_VALIDATION: 'invoice', MPESA_C2B_RESPONSE_TYPE: type };
      expect(await ask(env, true)).toEqual(verdict);
    });

    it('refuses an account number no open payment request has, and keeps the body', async () => {
      expect(await ask({ MPESA_C2B_VALIDATION: 'invoice' })).toEqual({
        ResultCode: 'C2B00012',
        ResultDesc: 'Rejected',
      });
      const kept = await database!.db.selectFrom('callbacks').selectAll().execute();
      expect(kept).toMatchObject([{ kind: 'c2b-validation', outcome: 'refused', raw_body: BODY }]);
    });

    it.each(['amount', 'invoice'])(
      'refuses an amount out of range with %s validation, the database gone',
      async (validation) => {
        const env = {
          MPESA_C2B_VALIDATION: validation,
          MPESA_C2B_RESPONSE_TYPE: 'Completed',
          C2B_MAX_AMOUNT: '50',
        };
        expect(await ask(env, true)).toEqual({ ResultCode: 'C2B00013', ResultDesc: 'Rejected' });
      },
    );

    it('takes an amount in range with amount validation, the database gone', async () => {
      const env = { MPESA_C2B_VALIDATION: 'amount', MPESA_C2B_RESPONSE_TYPE: 'Cancelled' };
      expect(await ask(env, true)).toEqual({ ResultCode: '0', ResultDesc: 'Accepted' });
    });

    it('keeps the body of an amount refused without the database, marked refused', async () => {
      const env = { MPESA_C2B_VALIDATION: 'amount', C2B_MIN_AMOUNT: '500' };
      expect(await ask(env)).toEqual({ ResultCode: 'C2B00013', ResultDesc: 'Rejected' });
      const kept = await database!.db.selectFrom('callbacks').selectAll().execute();
      expect(kept).toMatchObject([{ kind: 'c2b-validation', outcome: 'refused', raw_body: BODY }]);
    });

    it('takes every payment with validation off, the database gone or not', async () => {
      expect(await ask({ MPESA_C2B_VALIDATION: 'off', C2B_MAX_AMOUNT: '50' }, true)).toEqual({
        ResultCode: '0',
        ResultDesc: 'Accepted',
      });
    });
  });
}
