/**
 * Every database test runs once per dialect, in the style of Kysely's own suite: SQLite always,
 * PostgreSQL when TEST_DATABASE_URL names a server. Each run gets its own database (SQLite in memory)
 * or its own schema (PostgreSQL), dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, migrateToLatest, type DbHandle, type DialectName } from '../db/create-db.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

export const DIALECTS: DialectName[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase extends DbHandle {
  /** The URL another process (a second API instance) would use to reach the same data. */
  url: string;
  schema: string | undefined;
  destroy(): Promise<void>;
}

export async function createTestDatabase(
  dialect: DialectName,
  options: { file?: string } = {},
): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const url = options.file ?? ':memory:';
    const handle = createDb(url);
    await migrateToLatest(handle);
    return { ...handle, url, schema: undefined, destroy: () => handle.db.destroy() };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  const handle = createDb(TEST_DATABASE_URL, { schema, poolSize: 5 });
  await migrateBesideOthers(handle);
  return {
    ...handle,
    url: TEST_DATABASE_URL,
    schema,
    async destroy() {
      await handle.db.destroy();
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA "${schema}" CASCADE`);
      await cleanup.end();
    },
  };
}

/**
 * Migrates to `target` (the latest when undefined). Kysely's migrator looks for its tables with a
 * query over every schema the user may use (`has_schema_privilege` on each). Another test dropping
 * its own schema at that moment fails the query with "schema … does not exist" (3F000) or
 * "relation … does not exist" (42P01), though ours is there: it is asked again.
 */
export async function migrateBesideOthers(handle: DbHandle, target?: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error } = target
      ? await handle.migrator.migrateTo(target)
      : await handle.migrator.migrateToLatest();
    if (error === undefined) return;
    const code = (error as { code?: string }).code;
    if (!(code === '3F000' || code === '42P01') || attempt === 5) throw error;
  }
}
