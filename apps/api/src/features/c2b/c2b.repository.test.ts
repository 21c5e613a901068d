/** The open invoices a paybill's account number is matched against (docs/product.md §11), on each database. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { hasOpenInvoice } from './c2b.repository.ts';

const SINCE = '2026-11-01T00:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`an open invoice (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      await database.db
        .insertInto('transactions')
        .values([
          storedPayment('asked', '2026-11-20T09:00:00.000Z', {
            status: 'pending',
            reference: 'INV-7',
          }),
          storedPayment('paid', '2026-11-20T09:00:00.000Z', {
            status: 'success',
            reference: 'Inv-8',
          }),
        ])
        .execute();
    });
    afterEach(async () => {
      await database.destroy();
    });

    it.each(['INV-7', 'inv-7', 'Inv-7', ' inv-7  '])(
      'matches the account number %j, whatever its letter case and spaces around it',
      async (typed) => {
        expect(await hasOpenInvoice(database.db, typed, SINCE)).toBe(true);
      },
    );

    it('matches no other reference, nor one already paid in another letter case', async () => {
      expect(await hasOpenInvoice(database.db, 'INV-77', SINCE)).toBe(false);
      expect(await hasOpenInvoice(database.db, 'INV 7', SINCE)).toBe(false);
      expect(await hasOpenInvoice(database.db, 'INV-8', SINCE)).toBe(false);
    });
  });
}
