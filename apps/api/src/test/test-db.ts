/**
 * Every database test runs once per dialect, in the style of Kysely's own suite: SQLite always,
 * PostgreSQL when TEST_DATABASE_URL names a server. Each run gets its own database (SQLite in memory)
 * or its own schema (PostgreSQL), dropped afterwards.
 *
 * Under Vitest each is a copy of the migrated template the run made once (template-db.ts) rather
 * than 15 migrations run again. A test that migrates itself (down, step by step) asks for
 * `runMigrations`; an SQLite file, and any database made outside Vitest (the benches), is migrated.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, migrateToLatest, type DbHandle, type DialectName } from '../db/create-db.ts';
import {
  copyPostgresTemplate,
  copySqliteTemplate,
  migrateTo,
  type DatabaseTemplate,
} from './template-db.ts';

export { migrateTo };

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

export const DIALECTS: DialectName[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase extends DbHandle {
  /** The URL another process (a second API instance) would use to reach the same data. */
  url: string;
  schema: string | undefined;
  destroy(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** An SQLite file instead of a database in memory (migrated, never copied). */
  file?: string;
  /** Run the migrations on this database rather than copy the migrated template. */
  runMigrations?: boolean;
}

/** The run's template (global-setup.ts), or undefined outside Vitest. */
async function runTemplate(): Promise<DatabaseTemplate | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  return inject('databaseTemplate');
}

export async function createTestDatabase(
  dialect: DialectName,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const template = options.runMigrations ? undefined : await runTemplate();
  if (dialect === 'sqlite') {
    const url = options.file ?? ':memory:';
    const handle = createDb(url);
    if (options.file === undefined && template) await copySqliteTemplate(handle, template.sqlite);
    else await migrateToLatest(handle);
    return { ...handle, url, schema: undefined, destroy: () => handle.db.destroy() };
  }
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const handle = createDb(TEST_DATABASE_URL, { schema, poolSize: 5 });
  if (template?.postgres) {
    await copyPostgresTemplate(handle, schema, template.postgres);
  } else {
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    await migrateTo(handle);
  }
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
