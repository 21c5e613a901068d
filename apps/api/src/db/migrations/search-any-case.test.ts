/**
 * The search's indexes (migration 016), on each database: made over the payments already there,
 * and taken back down to what migration 004 made, and up again.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, migrateTo, type TestDatabase } from '../../test/test-db.ts';
import { storedPayment } from '../../test/stored-payment.ts';

const BEFORE = '2026-11-28-015-sign-in-guesses';
const SEARCH_ANY_CASE = '2026-11-29-016-search-any-case';

/** The names of this test's own `transactions` indexes (never another schema's). */
async function indexes(database: TestDatabase): Promise<string[]> {
  const { rows } =
    database.dialect === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes
          where schemaname = ${database.schema} and tablename = 'transactions'`.execute(database.db)
      : await sql<{ name: string }>`select name from sqlite_master
          where type = 'index' and tbl_name = 'transactions'`.execute(database.db);
  return rows.map((row) => row.name);
}

/** PostgreSQL's collation of the phone number column (null: the database's default). */
async function phoneCollation(database: TestDatabase): Promise<string | null> {
  const { rows } = await sql<{ collation: string | null }>`
    select collation_name as collation from information_schema.columns
    where table_schema = ${database.schema} and table_name = 'transactions'
      and column_name = 'phone_number'`.execute(database.db);
  return rows[0]!.collation;
}

for (const dialect of DIALECTS) {
  describe(`the search's indexes migration (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect, { runMigrations: true });
      await migrateTo(database, BEFORE);
    });
    afterEach(async () => {
      await database.destroy();
    });

    it('indexes the payments already there, and goes down to the case-sensitive index and up again', async () => {
      await sql`insert into transactions (id, reference, description, phone_number, amount, status,
          created_at, updated_at)
        values ('old', 'Sukari 2kg', 'Goods', '254700000001', 10, 'success',
          '2026-11-20T09:00:00.000Z', '2026-11-20T09:00:00.000Z')`.execute(database.db);

      await migrateTo(database, SEARCH_ANY_CASE);
      expect(await indexes(database)).toEqual(
        expect.arrayContaining([
          'transactions_reference_lower_idx',
          'transactions_phone_reversed_idx',
        ]),
      );
      expect(await indexes(database)).not.toContain('transactions_reference_idx');
      if (dialect === 'postgres') expect(await phoneCollation(database)).toBe('C');
      const found = await database.db
        .selectFrom('transactions')
        .select('id')
        .where(sql<string>`lower(reference)`, '>=', 'sukari')
        .where(sql<string>`lower(reference)`, '<', 'sukarj')
        .execute();
      expect(found).toEqual([{ id: 'old' }]);

      await migrateTo(database, BEFORE);
      const before = await indexes(database);
      expect(before).toContain('transactions_reference_idx');
      expect(before).not.toContain('transactions_reference_lower_idx');
      expect(before).not.toContain('transactions_phone_reversed_idx');
      if (dialect === 'postgres') expect(await phoneCollation(database)).toBeNull();

      await migrateTo(database, SEARCH_ANY_CASE);
      await database.db
        .insertInto('transactions')
        .values(storedPayment('new', '2026-11-21T09:00:00.000Z', { phone_number: '254711110001' }))
        .execute();
      expect(await indexes(database)).toContain('transactions_phone_reversed_idx');
    });
  });
}
