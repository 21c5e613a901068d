/**
 * The one place that chooses the database: PostgreSQL for postgres:// URLs, else an SQLite file
 * (or ":memory:") through node:sqlite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, type Dialect } from 'kysely';
import { OneSchemaPostgresDialect } from './one-schema-introspector.ts';
import { createNodeSqliteDialect } from './node-sqlite-dialect.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { makePrivateDir, makePrivateFile } from '../lib/private-files.ts';
import { appPool } from './postgres-pool.ts';
import { guardWrites } from './transact.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Runs and reports migrations; on PostgreSQL its tables live in the app's own schema. */
  migrator: Migrator;
  /** An SQLite file's: whether it was removed or replaced since it was opened (readiness says so). */
  fileGone?: () => boolean;
}

export interface CreateDbOptions {
  /** PostgreSQL pool size per instance. */
  poolSize?: number;
  /** PostgreSQL schema to use (tests make one each). */
  schema?: string;
  /**
   * Bounds on a database that stops answering (the server's settings; none for migrations and
   * commands, whose statements may rightly take long): `connectMs` for a PostgreSQL connection
   * (a free one from the pool, or a new one), `statementMs` for one PostgreSQL statement, `busyMs`
   * for SQLite to wait for another process's lock.
   */
  timeouts?: DatabaseTimeouts;
  /** Told of a pooled PostgreSQL connection that failed while nobody was using it. */
  onConnectionError?: (error: Error) => void;
}

export interface DatabaseTimeouts {
  connectMs: number;
  statementMs: number;
  busyMs: number;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * The file's path, with its folder made owner-only if it has to be created and the file itself
 * created owner-only (0600) whatever the umask: it holds payers' phone numbers, personal data under
 * Kenya's Data Protection Act. SQLite gives its -wal and -shm files the database file's mode.
 */
function sqliteFilename(url: string): string {
  if (url === ':memory:') return url;
  const file = url.startsWith('file:') ? url.slice('file:'.length) : url;
  const resolved = path.resolve(file);
  makePrivateDir(path.dirname(resolved));
  makePrivateFile(resolved);
  return resolved;
}

export function createDb(databaseUrl: string, options: CreateDbOptions = {}): DbHandle {
  let dialect: Dialect;
  let name: DialectName;
  /** SQLite's file (or ":memory:"). */
  let file: string | undefined;
  if (isPostgresUrl(databaseUrl)) {
    dialect = new OneSchemaPostgresDialect(
      { pool: appPool(databaseUrl, options) },
      options.schema ?? 'public',
    );
    name = 'postgres';
  } else {
    file = sqliteFilename(databaseUrl);
    // A server waits for another process's lock off the main thread (transact.ts), after SQLite's
    // own short wait; a command waits in SQLite.
    dialect = createNodeSqliteDialect(
      file,
      options.timeouts ? Math.min(SQLITE_LOCK_SPIN_MS, options.timeouts.busyMs) : undefined,
    );
    name = 'sqlite';
  }
  const db = new Kysely<Database>({ dialect });
  const fileGone = file === undefined || file === ':memory:' ? undefined : watchFile(file);
  if (name === 'sqlite' && options.timeouts) {
    guardWrites(db, { lockWaitMs: options.timeouts.busyMs, ...(fileGone ? { fileGone } : {}) });
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Kysely looks for its migration tables in every schema unless told which one: name it, so
    // that another schema in the same database (another deployment, a test) is never mistaken
    // for this one.
    ...(name === 'postgres' ? { migrationTableSchema: options.schema ?? 'public' } : {}),
  });
  return { db, dialect: name, migrator, ...(fileGone ? { fileGone } : {}) };
}

/**
 * For an SQLite file (its resolved path): a check that the file at its path is still the one
 * opened. A file removed or replaced under a running app (a clean-up script, a restore) would
 * otherwise go on taking writes that the next start never sees.
 */
function watchFile(file: string): () => boolean {
  const opened = fs.statSync(file);
  return () => {
    const now = fs.statSync(file, { throwIfNoEntry: false });
    return now === undefined || now.ino !== opened.ino || now.dev !== opened.dev;
  };
}

/**
 * The database the settings name (DATABASE_URL, DATABASE_SCHEMA), with `poolSize` connections, and
 * for a server the `timeouts` it answers within.
 */
export function openConfiguredDb(
  settings: { databaseUrl: string; databaseSchema?: string | undefined },
  poolSize: number,
  more: Pick<CreateDbOptions, 'timeouts' | 'onConnectionError'> = {},
): DbHandle {
  return createDb(settings.databaseUrl, {
    poolSize,
    ...(settings.databaseSchema ? { schema: settings.databaseSchema } : {}),
    ...more,
  });
}

export async function migrateToLatest({ migrator }: Pick<DbHandle, 'migrator'>): Promise<void> {
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    const which = failed ? `Database migration ${failed.migrationName}` : 'Database migrations';
    throw new Error(`${which} failed`, { cause: error });
  }
}

/**
 * How long SQLite itself waits for another process's lock, on the main thread, in a server: a
 * moment, for the other's commit to end; past it the group commit tries again after pauses.
 */
const SQLITE_LOCK_SPIN_MS = 20;
