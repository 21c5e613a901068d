/** The operators migration, on each database: two operators cannot share a name, whatever its case. */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from './index.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';

const BEFORE = '2026-11-25-006-event-kinds';
const LATEST = Object.keys(migrations).sort().at(-1) ?? '';

/** As callback-kind.test.ts: another test dropping its schema meanwhile fails the look; ask again. */
async function migrateTo(database: TestDatabase, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error } = await database.migrator.migrateTo(name);
    if (!error) return;
    if ((error as { code?: string }).code !== '3F000' || attempt === 5) throw error;
  }
}

const operator = (id: string, name: string) => ({
  id,
  name,
  name_key: name.toLowerCase(),
  role: 'owner' as const,
  password_hash: 'scrypt$32768$8$1$c2FsdA$a2V5',
  created_at: '2026-11-25T10:00:00.000Z',
  updated_at: '2026-11-25T10:00:00.000Z',
});

for (const dialect of DIALECTS) {
  describe(`the operators migration (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect, { runMigrations: true });
    });
    afterEach(async () => {
      await database.destroy();
    });

    it('keeps one operator per name, and their sessions', async () => {
      await database.db.insertInto('operators').values(operator('op-1', 'Amina')).execute();
      await expect(
        database.db.insertInto('operators').values(operator('op-2', 'AMINA')).execute(),
      ).rejects.toThrow();
      await database.db
        .insertInto('operator_sessions')
        .values({
          token_hash: 'a'.repeat(64),
          operator_id: 'op-1',
          created_at: '2026-11-25T10:00:00.000Z',
          last_seen_at: '2026-11-25T10:00:00.000Z',
          expires_at: '2026-11-25T22:00:00.000Z',
          revoked_at: null,
        })
        .execute();
      const sessions = await database.db.selectFrom('operator_sessions').selectAll().execute();
      expect(sessions).toHaveLength(1);
    });

    it('is undone by its down migration, and done again', async () => {
      await migrateTo(database, BEFORE);
      await expect(sql`select id from operators`.execute(database.db)).rejects.toThrow();
      await migrateTo(database, LATEST);
      const { rows } = await sql`select id from operators`.execute(database.db);
      expect(rows).toEqual([]);
    });
  });
}
