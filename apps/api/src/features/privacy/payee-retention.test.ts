/**
 * PHONE_RETENTION_DAYS and payouts: an old settled payout's payee number, and the receiver's name
 * M-PESA gave with it, are masked in place as a payer's are; a recent one, one still on its way,
 * and a till's number are kept. On each database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PayoutStatus } from '@mpesa/shared/contract-payouts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { maskDuePhones, type RetentionDeps } from './phone-retention.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const OLD = '2026-10-01T09:00:00.000Z';
const RECENT = '2026-11-20T09:00:00.000Z';
const quiet = { info() {}, warn() {}, error() {} } as unknown as RetentionDeps['log'];

for (const dialect of DIALECTS) {
  describe(`payees’ numbers past PHONE_RETENTION_DAYS (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(async () => {
      await database.destroy();
    });

    async function aPayout(id: string, at: string, status: PayoutStatus, payee = '254712345678') {
      await database.db
        .insertInto('payouts')
        .values({
          id,
          batch_id: null,
          kind: payee.length === 12 ? 'SalaryPayment' : 'BusinessBuyGoods',
          payee,
          account: null,
          amount: 100,
          reason: 'Wages',
          status,
          proposed_by: 'Baraka',
          proposed_by_id: 'op-1',
          receipt: status === 'succeeded' ? 'UAB1C2D3E4' : null,
          receiver_name: status === 'succeeded' ? `${payee} - JOHN DOE` : null,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }

    it('masks an old settled payout’s payee and receiver, and keeps the rest', async () => {
      await aPayout('old-paid', OLD, 'succeeded');
      await aPayout('old-failed', OLD, 'failed');
      await aPayout('old-sending', OLD, 'sending');
      await aPayout('recent', RECENT, 'succeeded');
      await aPayout('till', OLD, 'succeeded', '600555');
      await maskDuePhones({ db: database.db, dialect, log: quiet, now: () => NOW, days: 30 });
      const rows = await database.db
        .selectFrom('payouts')
        .select(['id', 'payee', 'receiver_name', 'receipt', 'amount'])
        .orderBy('id')
        .execute();
      const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
      expect(byId['old-paid']).toMatchObject({
        payee: '254*****5678',
        receiver_name: '254*****5678 - JOHN DOE',
        receipt: 'UAB1C2D3E4',
        amount: 100,
      });
      expect(byId['old-failed']!.payee).toBe('254*****5678');
      expect(byId['old-sending']!.payee).toBe('254712345678');
      expect(byId.recent!.payee).toBe('254712345678');
      expect(byId.till!.payee).toBe('600555');
    });
  });
}
