/** The `callbacks.kind` migration, on each database: rows kept before it are STK push's. */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from './index.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';

const BEFORE = '2026-11-23-004-history-search';

/**
 * Kysely's migrator looks for its tables over every schema (test-db.ts): another test dropping
 * its own schema at that moment fails the look with "schema … does not exist", and it is asked again.
 */
async function migrateTo(database: TestDatabase, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error } = await database.migrator.migrateTo(name);
    if (!error) return;
    if ((error as { code?: string }).code !== '3F000' || attempt === 5) throw error;
  }
}

/** The columns of this test's own `callbacks` table (never another schema's). */
async function callbackColumns(database: TestDatabase): Promise<string[]> {
  const { rows } =
    database.dialect === 'postgres'
      ? await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = ${database.schema} and table_name = 'callbacks'`.execute(database.db)
      : await sql<{ name: string }>`select name from pragma_table_info('callbacks')`.execute(
          database.db,
        );
  return rows.map((row) => row.name);
}

/** Back to the latest, as the app migrates at start-up. */
const migrateToLatest = (database: TestDatabase) =>
  migrateTo(database, Object.keys(migrations).sort().at(-1) ?? '');

for (const dialect of DIALECTS) {
  describe(`the callback kind migration (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect, { runMigrations: true });
      await migrateTo(database, BEFORE);
    });
    afterEach(async () => {
      await database.destroy();
    });

    it('gives every callback kept before it the STK push kind, and every later one its own', async () => {
      expect(await callbackColumns(database)).not.toContain('kind');
      await sql`insert into callbacks (id, received_at, raw_body, outcome)
        values ('old-1', '2026-11-24T10:00:00.000Z', '{}', 'invalid'),
               ('old-2', '2026-11-24T10:00:01.000Z', '{"Body":{}}', 'orphan')`.execute(database.db);

      await migrateToLatest(database);

      await database.db
        .insertInto('callbacks')
        .values({
          id: 'new-1',
          kind: 'stk-push',
          received_at: '2026-11-25T10:00:00.000Z',
          checkout_request_id: null,
          transaction_id: null,
          source_ip: null,
          raw_body: '{}',
          outcome: 'invalid',
        })
        .execute();
      const rows = await database.db
        .selectFrom('callbacks')
        .select(['id', 'kind', 'raw_body'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 'new-1', kind: 'stk-push', raw_body: '{}' },
        { id: 'old-1', kind: 'stk-push', raw_body: '{}' },
        { id: 'old-2', kind: 'stk-push', raw_body: '{"Body":{}}' },
      ]);
    });

    it('is undone by its down migration, the rows kept', async () => {
      await migrateToLatest(database);
      await sql`insert into callbacks (id, kind, received_at, raw_body, outcome)
        values ('kept', 'stk-push', '2026-11-25T10:00:00.000Z', '{}', 'invalid')`.execute(
        database.db,
      );
      await migrateTo(database, BEFORE);
      expect(await callbackColumns(database)).not.toContain('kind');
      const { rows } = await sql<{ id: string }>`select id from callbacks`.execute(database.db);
      expect(rows).toEqual([{ id: 'kept' }]);
    });
  });
}
