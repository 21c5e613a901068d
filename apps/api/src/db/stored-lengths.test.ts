import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { COLUMN_LENGTHS } from '../lib/stored-lengths.ts';

/** The declared length of every length-limited column, as the database itself reports it. */
async function declaredLengths(database: TestDatabase): Promise<Record<string, number>> {
  const lengths: Record<string, number> = {};
  if (database.dialect === 'postgres') {
    const { rows } = await sql<{ table_name: string; column_name: string; length: number }>`
      select table_name, column_name, character_maximum_length as length
      from information_schema.columns
      where table_schema = ${database.schema} and character_maximum_length is not null
        and table_name not like 'kysely_%'`.execute(database.db);
    for (const row of rows) lengths[`${row.table_name}.${row.column_name}`] = Number(row.length);
    return lengths;
  }
  const { rows: tables } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'kysely_%'
      and name not like 'sqlite_%'`.execute(database.db);
  for (const { name } of tables) {
    const { rows } = await sql<{ name: string; type: string }>`
      select name, type from pragma_table_info(${name})`.execute(database.db);
    for (const column of rows) {
      const match = /^varchar\((\d+)\)$/i.exec(column.type);
      if (match) lengths[`${name}.${column.name}`] = Number(match[1]);
    }
  }
  return lengths;
}

for (const dialect of DIALECTS) {
  describe(`stored lengths (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(async () => {
      await database.destroy();
    });

    it('declares every length-limited column exactly as the one rule says', async () => {
      expect(await declaredLengths(database)).toEqual(COLUMN_LENGTHS);
    });
  });
}
