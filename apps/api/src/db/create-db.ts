/**
 * The one place that chooses the database: PostgreSQL for postgres:// URLs, else an SQLite file
 * (or ":memory:") through node:sqlite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, type Dialect } from 'kysely';
import pg from 'pg';
import { createNodeSqliteDialect } from './node-sqlite-dialect.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Runs and reports migrations; on PostgreSQL its tables live in the app's own schema. */
  migrator: Migrator;
}

export interface CreateDbOptions {
  /** PostgreSQL pool size per instance. */
  poolSize?: number;
  /** PostgreSQL schema to use (tests make one each). */
  schema?: string;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

function sqliteFilename(url: string): string {
  if (url === ':memory:') return url;
  const file = url.startsWith('file:') ? url.slice('file:'.length) : url;
  const resolved = path.resolve(file);
  fs.mkdirSync(path.dirname(resolved), { recursive: true });
  return resolved;
}

export function createDb(databaseUrl: string, options: CreateDbOptions = {}): DbHandle {
  let dialect: Dialect;
  let name: DialectName;
  if (isPostgresUrl(databaseUrl)) {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: options.poolSize ?? 10,
      // Set at connection start-up, so every query on every pooled connection sees the schema.
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    dialect = new PostgresDialect({ pool });
    name = 'postgres';
  } else {
    dialect = createNodeSqliteDialect(sqliteFilename(databaseUrl));
    name = 'sqlite';
  }
  const db = new Kysely<Database>({ dialect });
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Kysely looks for its migration tables in every schema unless told which one: name it, so
    // that another schema in the same database (another deployment, a test) is never mistaken
    // for this one.
    ...(name === 'postgres' ? { migrationTableSchema: options.schema ?? 'public' } : {}),
  });
  return { db, dialect: name, migrator };
}

/** The database the settings name (DATABASE_URL, DATABASE_SCHEMA), with `poolSize` connections. */
export function openConfiguredDb(
  settings: { databaseUrl: string; databaseSchema?: string | undefined },
  poolSize: number,
): DbHandle {
  return createDb(settings.databaseUrl, {
    poolSize,
    ...(settings.databaseSchema ? { schema: settings.databaseSchema } : {}),
  });
}

export async function migrateToLatest({ migrator }: Pick<DbHandle, 'migrator'>): Promise<void> {
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
