/**
 * PHONE_RETENTION_DAYS masks the payer's number of every settled payment: a refunded one too (final,
 * transaction-lifecycle.ts), and the full number a receipt check found in M-PESA's transaction
 * status Result (DebitPartyName, features/c2b/receipt-result.ts), kept in `payer_msisdn`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { maskDuePhones, type RetentionDeps } from './phone-retention.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const OLD = '2026-10-01T09:00:00.000Z';
const quiet = { info() {}, warn() {}, error() {}, debug() {} } as unknown as RetentionDeps['log'];

for (const dialect of DIALECTS) {
  describe(`retention of refunded and till payments (${dialect})`, () => {
    let database: TestDatabase;
    let deps: RetentionDeps;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      deps = { db: database.db, dialect, log: quiet, now: () => NOW, days: 30 };
    });
    afterEach(async () => {
      await database.destroy();
    });

    const row = (id: string) =>
      database.db
        .selectFrom('transactions')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    it('masks the number of an old refunded payment', async () => {
      await database.db
        .insertInto('transactions')
        .values(
          storedPayment('old-refunded', OLD, {
            phone_number: '254712345678',
            status: 'refunded',
            mpesa_receipt_number: 'UF1E26WQJZ',
            result_code: '0',
          }),
        )
        .execute();
      await maskDuePhones(deps);
      expect((await row('old-refunded')).phone_number).toBe('254*****5678');
    });

    it('masks the full number a receipt check stored in payer_msisdn', async () => {
      await database.db
        .insertInto('transactions')
        .values({
          ...storedPayment('old-till', OLD, {
            phone_number: '254712345678',
            status: 'success',
            mpesa_receipt_number: 'UF1E26WQJY',
            result_code: '0',
          }),
          channel: 'till',
          payer_msisdn: '254712345678',
          payer_name: 'NICHOLAS JOHN SONGOK',
          shortcode: '600100',
        })
        .execute();
      await maskDuePhones(deps);
      const masked = await row('old-till');
      expect(masked.phone_number).toBe('254*****5678');
      // No full number is left anywhere in the row.
      expect(JSON.stringify(masked)).not.toContain('712345678');
    });
  });
}
