/**
 * Every database test runs once per dialect, in the style of Kysely's own suite: SQLite always,
 * PostgreSQL when TEST_DATABASE_URL names a server. Each run gets its own database (SQLite in memory)
 * or its own schema (PostgreSQL), dropped afterwards.
 *
 * Under Vitest each is a copy of the migrated template the run made once (template-db.ts) rather
 * than 15 migrations run again; on PostgreSQL a copy a test is done with is emptied and used by the
 * next test of the same process. A test that migrates itself (down, step by step) asks for
 * `runMigrations`; an SQLite file, and any database made outside Vitest (the benches), is migrated.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, migrateToLatest, type DbHandle, type DialectName } from '../db/create-db.ts';
import {
  copyName,
  copyPostgresTemplate,
  copySqliteTemplate,
  migrateTo,
  resetPostgresCopy,
  type DatabaseTemplate,
  type PostgresTemplate,
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

/** The app's settings that point a process or a command at this database, with its data folder. */
export function settingsFor(database: TestDatabase, dataDir: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    ...(database.schema ? { DATABASE_SCHEMA: database.schema } : {}),
  };
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
  if (template?.postgres) return postgresCopy(TEST_DATABASE_URL, template.postgres);
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const handle = createDb(TEST_DATABASE_URL, { schema, poolSize: 5 });
  await onServer(TEST_DATABASE_URL, `CREATE SCHEMA "${schema}"`);
  await migrateTo(handle);
  return {
    ...handle,
    url: TEST_DATABASE_URL,
    schema,
    async destroy() {
      await handle.db.destroy();
      await onServer(TEST_DATABASE_URL!, `DROP SCHEMA "${schema}" CASCADE`);
    },
  };
}

/** One statement on the server, over a connection of its own (a schema made or dropped). */
async function onServer(url: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** This process's copies of the template that their tests are done with: used again, emptied. */
const spareCopies: string[] = [];

/**
 * A copy of the template: one a test of this process is done with, emptied, or a new one. Its
 * `destroy` closes its pool and keeps it for the next test; the run's end drops it with the
 * template (template-db.ts). A test that asked for its schema's name may have given it to another
 * process (an API, a command line), which may still be writing there: that copy is dropped, never
 * used again.
 */
async function postgresCopy(url: string, template: PostgresTemplate): Promise<TestDatabase> {
  const { schema, handle } = (await reusedCopy(url, template)) ?? (await newCopy(url, template));
  let named = false;
  let destroyed = false;
  return {
    ...handle,
    url,
    get schema() {
      named = true;
      return schema;
    },
    async destroy() {
      await handle.db.destroy();
      if (destroyed) return;
      destroyed = true;
      if (named) await onServer(url, `DROP SCHEMA "${schema}" CASCADE`);
      else spareCopies.push(schema);
    },
  };
}

/** A spare copy of this process's, emptied; none when there is none it can use. */
async function reusedCopy(url: string, template: PostgresTemplate) {
  for (let spare = spareCopies.pop(); spare !== undefined; spare = spareCopies.pop()) {
    const handle = createDb(url, { schema: spare, poolSize: 5 });
    if (await resetPostgresCopy(handle, spare, template)) return { schema: spare, handle };
    // Changed by its test, or held by a lock: left for the run's end to drop.
    await handle.db.destroy();
  }
  return undefined;
}

async function newCopy(url: string, template: PostgresTemplate) {
  const schema = copyName(template);
  const handle = createDb(url, { schema, poolSize: 5 });
  await copyPostgresTemplate(handle, schema, template);
  return { schema, handle };
}
