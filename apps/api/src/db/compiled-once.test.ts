import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Database, TransactionPatch } from './schema.ts';
import { compiledOnce } from './compiled-once.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { storedPayment } from '../test/stored-payment.ts';

const AT = '2026-11-28T09:00:00.000Z';

/** An update of a payment from a status, with a patch and a condition of its own. */
const move = (
  db: Kysely<Database>,
  values: { id: string; from: 'pending'; patch: TransactionPatch; note?: { at: string } },
) =>
  db
    .updateTable('transactions')
    .set(values.patch)
    .where('id', '=', values.id)
    .where('status', '=', values.from)
    .$if(values.note !== undefined, (query) => query.where('created_at', '<=', values.note!.at))
    .where('amount', '>', 0);

for (const dialect of DIALECTS) {
  describe(`statements compiled once (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(() => database.destroy());

    it('are what Kysely builds with the values in place, built once per shape', async () => {
      let builds = 0;
      const statement = compiledOnce((db, values: Parameters<typeof move>[1]) => {
        builds += 1;
        return move(db, values);
      });
      const calls: Parameters<typeof move>[1][] = [
        { id: 'a', from: 'pending', patch: { status: 'success', result_code: '0' } },
        { id: 'b', from: 'pending', patch: { status: 'failed', result_code: '1032' } },
        {
          id: 'c',
          from: 'pending',
          patch: { status: 'failed', result_code: null },
          note: { at: AT },
        },
        // Left undefined: the column is not set, as Kysely leaves it out.
        { id: 'd', from: 'pending', patch: { status: 'success', result_code: undefined } },
      ];
      for (const values of calls) {
        const once = statement(database.db, values);
        const built = move(database.db, values).compile();
        expect({ sql: once.sql, parameters: once.parameters }).toEqual({
          sql: built.sql,
          parameters: built.parameters,
        });
      }
      // Three shapes: with the note, without it, and without the result code.
      expect(builds).toBe(3);
    });

    it('run with their own values, in a transaction too', async () => {
      const insert = compiledOnce((db, row: ReturnType<typeof storedPayment>) =>
        db.insertInto('transactions').values(row),
      );
      const update = compiledOnce((db, values: Parameters<typeof move>[1]) => move(db, values));
      await database.db.executeQuery(
        insert(database.db, storedPayment('p-1', AT, { status: 'pending' })),
      );
      await database.db.transaction().execute(async (trx) => {
        await trx.executeQuery(insert(trx, storedPayment('p-2', AT, { status: 'pending' })));
        const moved = await trx.executeQuery(
          update(trx, { id: 'p-2', from: 'pending', patch: { status: 'success' } }),
        );
        expect(Number(moved.numAffectedRows)).toBe(1);
      });
      const again = await database.db.executeQuery(
        update(database.db, { id: 'p-2', from: 'pending', patch: { status: 'failed' } }),
      );
      expect(Number(again.numAffectedRows)).toBe(0);
      const rows = await database.db
        .selectFrom('transactions')
        .select(['id', 'status'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 'p-1', status: 'pending' },
        { id: 'p-2', status: 'success' },
      ]);
    });

    it('refuse a builder that makes a value part of the SQL text', () => {
      const statement = compiledOnce((db, values: { id: string }) =>
        db
          .selectFrom('transactions')
          .select('id')
          .where('id', '=', sql.lit(String(values.id))),
      );
      expect(() => statement(database.db, { id: 'a' })).toThrow(/id did not become parameters/);
    });
  });
}
