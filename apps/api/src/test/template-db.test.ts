/**
 * A test database copied from the run's migrated template (test/template-db.ts) is the database the
 * migrations make: the same tables, columns, constraints and indexes under the same names, and
 * the same migrations recorded, on each database; and it is its own.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from './test-db.ts';
import { storedPayment } from './stored-payment.ts';

/** The schema as its catalog describes it, with nothing that names the schema itself. */
async function describeSchema(database: TestDatabase) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- catalog queries
  const db = database.db as Kysely<any>;
  if (database.dialect === 'sqlite') {
    const { rows } = await sql`
      select type, name, tbl_name, sql from sqlite_master order by type, name
    `.execute(db);
    return rows;
  }
  const schema = database.schema!;
  const strip = (text: string) => text.replaceAll(`${schema}.`, '');
  const columns = await sql`
    select table_name, column_name, ordinal_position, data_type, is_nullable, column_default,
      character_maximum_length, numeric_precision, collation_name
    from information_schema.columns where table_schema = ${schema}
    order by table_name, ordinal_position
  `.execute(db);
  const constraints = await sql<{ tbl: string; name: string; def: string }>`
    select t.relname as tbl, k.conname as name, pg_get_constraintdef(k.oid) as def
    from pg_constraint k join pg_class t on t.oid = k.conrelid
    where k.connamespace = ${schema}::regnamespace order by tbl, name
  `.execute(db);
  const indexes = await sql<{ name: string; def: string }>`
    select indexname as name, indexdef as def from pg_indexes
    where schemaname = ${schema} order by indexname
  `.execute(db);
  return {
    columns: columns.rows,
    constraints: constraints.rows.map((row) => ({ ...row, def: strip(row.def) })),
    indexes: indexes.rows.map((row) => ({ ...row, def: strip(row.def) })),
  };
}

async function migrationsRecorded(database: TestDatabase) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own table
  const db = database.db as Kysely<any>;
  return db.selectFrom('kysely_migration').select('name').orderBy('name').execute();
}

for (const dialect of DIALECTS) {
  describe(`a copied test database (${dialect})`, () => {
    const made: TestDatabase[] = [];
    afterAll(async () => {
      for (const database of made) await database.destroy();
    });

    it('is the database the migrations make', async () => {
      const migrated = await createTestDatabase(dialect, { runMigrations: true });
      made.push(migrated);
      const copied = await createTestDatabase(dialect);
      made.push(copied);
      expect(await describeSchema(copied)).toEqual(await describeSchema(migrated));
      expect(await migrationsRecorded(copied)).toEqual(await migrationsRecorded(migrated));
      const { results } = await copied.migrator.migrateToLatest();
      expect(results).toEqual([]);
    });

    it('is its own: rows written to one are not in another', async () => {
      const [first, second] = [
        await createTestDatabase(dialect),
        await createTestDatabase(dialect),
      ];
      made.push(first, second);
      await first.db
        .insertInto('rate_limits')
        .values({ key: 'k', window_index: 1, hits: 1 })
        .execute();
      const count = (database: TestDatabase) =>
        database.db
          .selectFrom('rate_limits')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow();
      expect(Number((await count(first)).n)).toBe(1);
      expect(Number((await count(second)).n)).toBe(0);
    });
  });
}

if (DIALECTS.includes('postgres')) {
  describe('a PostgreSQL copy a test is done with', () => {
    const schemaOf = async (database: TestDatabase) =>
      (await sql<{ name: string }>`select current_schema() as name`.execute(database.db)).rows[0]!
        .name;
    const rateLimits = async (database: TestDatabase) =>
      Number(
        (
          await database.db
            .selectFrom('rate_limits')
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const exists = async (database: TestDatabase, schema: string) =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from pg_namespace where nspname = ${schema}`.execute(
          database.db,
        )
      ).rows[0]!.n === 1;

    it('is used again, emptied, with the migrations still recorded', async () => {
      const first = await createTestDatabase('postgres');
      const used = await schemaOf(first);
      await first.db
        .insertInto('rate_limits')
        .values({ key: 'k', window_index: 1, hits: 1 })
        .execute();
      // A refund references its payment (no cascade): the refund must be emptied first.
      const at = '2026-11-29T08:00:00.000Z';
      await first.db.insertInto('transactions').values(storedPayment('tx-1', at)).execute();
      await first.db
        .insertInto('refunds')
        .values({
          id: 'refund-1',
          transaction_id: 'tx-1',
          status: 'requested',
          amount: 10,
          reason: 'Returned goods',
          requested_by: 'Amina',
          requested_by_id: null,
          originator_conversation_id: null,
          conversation_id: null,
          status_query_id: null,
          result_code: null,
          result_description: null,
          reversal_receipt: null,
          created_at: at,
          updated_at: at,
          next_check_at: null,
          lease_until: null,
          lease_owner: null,
        })
        .execute();
      await first.destroy();
      const next = await createTestDatabase('postgres');
      const fresh = await createTestDatabase('postgres', { runMigrations: true });
      try {
        expect(await schemaOf(next)).toBe(used);
        expect(await rateLimits(next)).toBe(0);
        expect(await migrationsRecorded(next)).toEqual(await migrationsRecorded(fresh));
        expect(await describeSchema(next)).toEqual(await describeSchema(fresh));
      } finally {
        await next.destroy();
        await fresh.destroy();
      }
    });

    it('is not used again once its test has changed its tables', async () => {
      const first = await createTestDatabase('postgres');
      const used = await schemaOf(first);
      await first.db.schema.dropTable('rate_limits').execute();
      await first.destroy();
      const next = await createTestDatabase('postgres');
      try {
        expect(await schemaOf(next)).not.toBe(used);
        expect(await rateLimits(next)).toBe(0);
      } finally {
        await next.destroy();
      }
    });

    it('is dropped, not used again, once its test has asked its schema’s name (another process may use it)', async () => {
      const first = await createTestDatabase('postgres');
      const named = first.schema!;
      await first.destroy();
      const next = await createTestDatabase('postgres');
      try {
        expect(await schemaOf(next)).not.toBe(named);
        expect(await exists(next, named)).toBe(false);
      } finally {
        await next.destroy();
      }
    });
  });
}
