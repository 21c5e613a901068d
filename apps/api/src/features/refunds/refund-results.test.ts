/**
 * A reversal's Result that overtakes its request (refund-results.ts): Daraja posted it before the
 * acknowledgement's ids were saved, and it is still applied to its refund. On each database.
 */
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedPayment } from '../../test/stored-payment.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/test-db.ts';
import { takeRefundResult } from './refund-results.ts';

const AT = '2026-11-27T09:00:00.000Z';
const quiet = { info() {}, warn() {}, error() {}, debug() {} } as unknown as FastifyBaseLogger;

const RESULT = JSON.stringify({
  Result: {
    ResultType: 0,
    ResultCode: 0,
    ResultDesc: 'The service request is processed successfully.',
    OriginatorConversationID: 'oc-overtaken',
    ConversationID: 'AG_20261127_overtaken',
    TransactionID: 'UK2REVERS1',
  },
});

for (const dialect of DIALECTS) {
  describe(`a reversal Result ahead of its request's ids (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      await database.db
        .insertInto('transactions')
        .values(
          storedPayment('paid', AT, {
            status: 'success',
            result_code: '0',
            mpesa_receipt_number: 'UK2PAID001',
          }),
        )
        .execute();
      await database.db
        .insertInto('refunds')
        .values({
          id: 'refund-1',
          transaction_id: 'paid',
          status: 'requested',
          amount: 100,
          reason: 'Paid twice',
          requested_by: 'Amina',
          requested_by_id: null,
          originator_conversation_id: null,
          conversation_id: null,
          status_query_id: null,
          result_code: null,
          result_description: null,
          reversal_receipt: null,
          created_at: AT,
          updated_at: AT,
          next_check_at: null,
          lease_until: null,
          lease_owner: null,
        })
        .execute();
    });
    afterEach(async () => {
      await database.destroy();
    });

    const take = () =>
      takeRefundResult(
        {
          db: database.db,
          now: () => new Date('2026-11-27T09:00:05.000Z'),
          log: quiet,
          settings: { maxAgeDays: 30, checkAfterS: 60, giveUpS: 3600 },
        },
        'reversal',
        { raw: RESULT, ip: '196.201.214.200' },
      );

    it('is applied once the ids are saved, and the payment shows refunded', async () => {
      const taking = take();
      // The acknowledgement's ids, saved a moment after the Result came.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await database.db
        .updateTable('refunds')
        .set({
          originator_conversation_id: 'oc-overtaken',
          conversation_id: 'AG_20261127_overtaken',
        })
        .where('id', '=', 'refund-1')
        .execute();
      expect(await taking).toBe('applied');
      const refund = await database.db
        .selectFrom('refunds')
        .select(['status', 'reversal_receipt'])
        .executeTakeFirstOrThrow();
      expect(refund).toEqual({ status: 'reversed', reversal_receipt: 'UK2REVERS1' });
      const payment = await database.db
        .selectFrom('transactions')
        .select('status')
        .executeTakeFirstOrThrow();
      expect(payment.status).toBe('refunded');
    });

    it('is an orphan when no refund ever has its ids', async () => {
      expect(await take()).toBe('orphan');
      const kept = await database.db.selectFrom('callbacks').select('outcome').execute();
      expect(kept).toEqual([{ outcome: 'orphan' }]);
    });
  });
}
