/**
 * A receipt check whose Result never comes is told as failed after a while (so that the merchant
 * is not left waiting), without changing what a Result that still comes would record.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import {
  NO_ANSWER,
  RECEIPT_CHECK_NO_ANSWER_MS,
  getReceiptCheck,
} from './receipt-checks.service.ts';

const ASKED_AT = new Date('2026-11-27T09:00:00.000Z');
const later = (ms: number) => () => new Date(ASKED_AT.getTime() + ms);

for (const dialect of DIALECTS) {
  describe(`a receipt check with no answer (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      await database.db
        .insertInto('receipt_checks')
        .values({
          id: 'check-1',
          receipt: 'UAB1C2D3E4',
          status: 'asked',
          requested_by: 'Cate',
          originator_conversation_id: 'AG_20261127_0000',
          transaction_id: null,
          result_code: null,
          created_at: ASKED_AT.toISOString(),
          updated_at: ASKED_AT.toISOString(),
        })
        .execute();
    });
    afterEach(async () => {
      await database.destroy();
    });

    it('is still asked while M-PESA may answer, and failed with no answer after', async () => {
      const db = database.db;
      expect(await getReceiptCheck({ db, now: later(60_000) }, 'check-1')).toMatchObject({
        status: 'asked',
        resultCode: null,
      });
      const tooLate = later(RECEIPT_CHECK_NO_ANSWER_MS + 1000);
      expect(await getReceiptCheck({ db, now: tooLate }, 'check-1')).toMatchObject({
        status: 'failed',
        resultCode: NO_ANSWER,
      });
      // Only the answer says so: the check stays open to a Result that still comes.
      const row = await db.selectFrom('receipt_checks').select('status').executeTakeFirstOrThrow();
      expect(row.status).toBe('asked');
    });
  });
}
