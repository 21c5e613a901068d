/**
 * The one place that chooses the database: PostgreSQL for postgres:// URLs, else an SQLite file
 * (or ":memory:") through node:sqlite.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  type Dialect,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import { createNodeSqliteDialect } from './node-sqlite-dialect.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { makePrivateDir, makePrivateFile } from '../lib/private-files.ts';
import { isDatabaseUnavailable } from './unavailable.ts';
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
    const { timeouts } = options;
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: options.poolSize ?? 10,
      // Set at connection start-up, so every query on every pooled connection sees the schema.
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
      // A server that dies without closing its connections is found by the kernel's keep-alive.
      keepAlive: true,
      ...(timeouts
        ? {
            connectionTimeoutMillis: timeouts.connectMs,
            // The server gives up a statement itself; the client gives up waiting for a server
            // that no longer answers at all (stopped, or its host gone).
            statement_timeout: timeouts.statementMs,
            query_timeout: timeouts.statementMs + STATEMENT_GRACE_MS,
          }
        : {}),
    });
    keepPoolAlive(pool, options.onConnectionError);
    dialect = new PostgresDialect({ pool: discardingBrokenClients(pool) });
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

/** How much longer than the server's statement timeout the client waits before it gives up. */
const STATEMENT_GRACE_MS = 1000;

/**
 * `pg` emits 'error' on a pool whose idle connection the server ended (a restart, a failover,
 * `pg_terminate_backend`), and on a checked-out connection that broke between two statements; with
 * no listener, Node would end the process. Each is told to `onConnectionError` instead: the pool
 * drops the connection, and the next request opens a new one (or answers 503 until it can).
 */
function keepPoolAlive(pool: pg.Pool, onConnectionError = (_error: Error) => {}): void {
  pool.on('error', (error) => onConnectionError(error));
  pool.on('connect', (client) => {
    client.on('error', (error) => onConnectionError(error));
  });
}

/**
 * Kysely hands a connection back to the pool as it is. One whose statement ran out of time may still
 * be waiting on a server that stopped answering, and would hold up every statement after it: it is
 * handed back as broken, so that the pool closes it and opens a fresh one.
 */
function discardingBrokenClients(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let found = wrapped.get(client);
      if (!found) {
        let broken = false;
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        found = {
          query: ((...args: unknown[]) => {
            const result = query(...args);
            if (result instanceof Promise) {
              result.catch((error: unknown) => {
                if (isDatabaseUnavailable(error)) broken = true;
              });
            }
            return result;
          }) as PostgresPoolClient['query'],
          release() {
            const destroy = broken;
            broken = false;
            client.release(destroy);
          },
        };
        wrapped.set(client, found);
      }
      return found;
    },
    end: () => pool.end(),
  };
}
