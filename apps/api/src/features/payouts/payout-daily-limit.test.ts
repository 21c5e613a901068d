/**
 * The shop's daily limit holds when proposals come at once: each counts the day's payouts with no
 * other proposal between its count and its insert (on PostgreSQL an advisory lock; SQLite writes
 * one transaction at a time). On both databases.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import { AppError } from '../../errors/app-error.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/test-db.ts';
import { proposePayout } from './payout-proposal.ts';
import type { PayoutDeps } from './payouts.service.ts';
import { silentLog } from '../../test/silent-log.ts';

/** Never asked: a cashier's proposals wait for an owner. */
const money = { canReverse: true } as unknown as DarajaMoneyClient;
const CASHIER = {
  name: 'Cate Cashier',
  operatorId: 'cashier-id',
  role: 'cashier' as const,
  address: null,
};

for (const dialect of DIALECTS) {
  describe(`the daily payout limit under proposals at once (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(() => database.destroy());

    it('takes only what fits: 3 of 8 proposals of 300 KES under a limit of 1,000', async () => {
      const deps: PayoutDeps = {
        db: database.db,
        now: () => new Date(),
        log: silentLog,
        money,
        callbackUrlFor: (kind) => `http://127.0.0.1:3000/api/callbacks/${kind}`,
        settings: {
          shortcode: '600000',
          oneOwnerUnder: 0,
          maxAmount: 500,
          dailyLimit: 1000,
          checkAfterS: 60,
          giveUpS: 3600,
          balanceIntervalS: 0,
        },
        timeZone: 'Africa/Nairobi',
        leaseMs: 60_000,
      };
      const answers = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          proposePayout(
            deps,
            { to: '0708374149', amount: 300, reason: `Rider ${i + 1}` } as never,
            CASHIER,
          ),
        ),
      );
      const taken = answers.filter((answer) => answer.status === 'fulfilled');
      const refused = answers.flatMap((answer) =>
        answer.status === 'rejected' ? [answer.reason] : [],
      );
      expect(taken).toHaveLength(3);
      expect(refused).toHaveLength(5);
      for (const reason of refused) {
        expect(reason).toBeInstanceOf(AppError);
        expect((reason as AppError).code).toBe('PAYOUT_DAILY_LIMIT');
      }
      const stored = await database.db.selectFrom('payouts').select('amount').execute();
      expect(stored.reduce((sum, row) => sum + Number(row.amount), 0)).toBe(900);
    });
  });
}
