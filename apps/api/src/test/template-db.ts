/**
 * The migrated database each test database is copied from, made once per run instead of running
 * the migrations for every test: `database-template.setup.ts` (the api project's globalSetup) makes
 * it and hands it to every test file, and createTestDatabase copies it.
 *
 * - SQLite: the statements `sqlite_master` holds after migrating a database in memory (tables,
 *   then indexes, views and triggers) and the rows the migrations leave, replayed into each new
 *   database in one transaction.
 * - PostgreSQL: a schema of its own, migrated once and dropped at the end of the run, and a script
 *   that makes a schema like it: each table by `LIKE` (columns, NOT NULL, defaults, collations),
 *   its rows, then its constraints and indexes under their own names, as a migration down expects
 *   to find them. A copy a test is done with is emptied and used again (`resetScript`: 11 ms,
 *   where a copy took 160 and dropping it 100), unless its tables are no longer the template's
 *   (`fingerprint`); the copies are named after the template and dropped with it.
 */
import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import pg from 'pg';
import { createDb, migrateToLatest, type DbHandle } from '../db/create-db.ts';

export interface DatabaseTemplate {
  sqlite: SqliteTemplate;
  /** Undefined when the run has no PostgreSQL (TEST_DATABASE_URL unset). */
  postgres: PostgresTemplate | undefined;
}

export interface SqliteTemplate {
  /** CREATE TABLE, then CREATE INDEX, VIEW and TRIGGER statements, as sqlite_master holds them. */
  statements: string[];
  /** The rows migrations leave (Kysely's own tables'), by table. */
  rows: { table: string; rows: Record<string, unknown>[] }[];
}

export interface PostgresTemplate {
  /** The migrated schema the script copies from: it must stay until the run ends. */
  schema: string;
  /** Run with search_path set to the new, empty schema. */
  script: string;
  /**
   * Run with search_path set to a copy: every table emptied (a table before those it references)
   * and given the template's rows again.
   */
  resetScript: string;
  /** What `FINGERPRINT` reads of the template: a copy that reads otherwise is not used again. */
  fingerprint: string;
}

/**
 * A schema's tables, columns (with their types), indexes, constraints and triggers, as one text:
 * a test that dropped a table or added a trigger leaves a copy that no longer reads as the
 * template does.
 */
export const FINGERPRINT = `
  select coalesce(string_agg(part, ',' order by part), '') as fingerprint from (
    select concat_ws(':', 'c', c.relname, a.attname, a.atttypid, a.atttypmod, a.attnotnull) as part
    from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.relnamespace = $1::regnamespace and a.attnum > 0 and not a.attisdropped
    union all
    select concat_ws(':', 'k', conname, contype) from pg_constraint
    where connamespace = $1::regnamespace
    union all
    select concat_ws(':', 't', g.tgname) from pg_trigger g join pg_class c on c.oid = g.tgrelid
    where c.relnamespace = $1::regnamespace and not g.tgisinternal
  ) parts`;

/** Migrates to `target` (the latest when undefined), or throws why it could not. */
export async function migrateTo(handle: DbHandle, target?: string): Promise<void> {
  const { error } = target
    ? await handle.migrator.migrateTo(target)
    : await handle.migrator.migrateToLatest();
  if (error !== undefined) throw error;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the template's tables, whatever they are
type AnyDb = Kysely<any>;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

// ---------------------------------------------------------------------------------------- SQLite

export async function makeSqliteTemplate(): Promise<SqliteTemplate> {
  const handle = createDb(':memory:');
  try {
    await migrateToLatest(handle);
    const db = handle.db as AnyDb;
    const { rows: objects } = await sql<{ type: string; name: string; sql: string }>`
      select type, name, sql from sqlite_master
      where sql is not null and name not like 'sqlite\\_%' escape '\\'
      order by case type when 'table' then 0 when 'index' then 1 when 'view' then 2 else 3 end, rowid
    `.execute(db);
    const tables = objects.filter((each) => each.type === 'table').map((each) => each.name);
    const { rows: sequence } = await sql<{ name: string }>`
      select name from sqlite_master where type = 'table' and name = 'sqlite_sequence'
    `.execute(db);
    if (sequence.length > 0) tables.push('sqlite_sequence');
    const rows: SqliteTemplate['rows'] = [];
    for (const table of tables) {
      const found = await db.selectFrom(table).selectAll().execute();
      if (found.length > 0) rows.push({ table, rows: found });
    }
    return { statements: objects.map((each) => each.sql), rows };
  } finally {
    await handle.db.destroy();
  }
}

/** Gives the new, empty SQLite database `handle` the template's schema and rows. */
export async function copySqliteTemplate(
  handle: DbHandle,
  template: SqliteTemplate,
): Promise<void> {
  const db = handle.db as AnyDb;
  await db.transaction().execute(async (trx) => {
    for (const statement of template.statements) await sql.raw(statement).execute(trx);
    for (const { table, rows } of template.rows) await trx.insertInto(table).values(rows).execute();
  });
}

// ------------------------------------------------------------------------------------ PostgreSQL

/** Migrates a new schema on the server at `url` and writes the script that copies it. */
export async function makePostgresTemplate(url: string): Promise<PostgresTemplate> {
  const schema = `test_template_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${quote(schema)}`);
    const handle = createDb(url, { schema, poolSize: 1 });
    try {
      await migrateTo(handle);
    } finally {
      await handle.db.destroy();
    }
    const { rows } = await admin.query<{ fingerprint: string }>(FINGERPRINT, [schema]);
    return { schema, ...(await copyScripts(admin, schema)), fingerprint: rows[0]!.fingerprint };
  } catch (error) {
    await admin.query(`DROP SCHEMA IF EXISTS ${quote(schema)} CASCADE`);
    throw error;
  } finally {
    await admin.end();
  }
}

/** Drops the template and every copy of it the run has left (`copyName`). */
export async function dropPostgresTemplate(url: string, template: PostgresTemplate): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows: copies } = await admin.query<{ name: string }>(
      `SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1)`,
      [`${template.schema}_`],
    );
    for (const { name } of copies) await admin.query(`DROP SCHEMA ${quote(name)} CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS ${quote(template.schema)} CASCADE`);
  } finally {
    await admin.end();
  }
}

/** A new copy's schema name: the template's, so that the run's end drops it whatever happened. */
export function copyName(template: PostgresTemplate): string {
  return `${template.schema}_${randomBytes(6).toString('hex')}`;
}

async function copyScripts(
  admin: pg.Client,
  template: string,
): Promise<Pick<PostgresTemplate, 'script' | 'resetScript'>> {
  await admin.query('BEGIN');
  try {
    // Names in the definitions below unqualified: they are then the new schema's.
    await admin.query(`SET LOCAL search_path TO ${quote(template)}`);
    const { rows: tables } = await admin.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c
       WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r' ORDER BY c.oid`,
      [template],
    );
    const { rows: constraints } = await admin.query<{
      tbl: string;
      name: string;
      def: string;
      /** The table a foreign key references. */
      ref: string | null;
    }>(
      `SELECT t.relname AS tbl, k.conname AS name, pg_get_constraintdef(k.oid) AS def,
         r.relname AS ref
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
       LEFT JOIN pg_class r ON r.oid = k.confrelid
       WHERE k.connamespace = $1::regnamespace AND k.contype IN ('p', 'u', 'x', 'c', 'f')
       ORDER BY CASE k.contype WHEN 'f' THEN 1 ELSE 0 END, k.oid`,
      [template],
    );
    const { rows: indexes } = await admin.query<{ def: string }>(
      `SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE c.relnamespace = $1::regnamespace AND NOT EXISTS (
         SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.contype IN ('p', 'u', 'x'))
       ORDER BY i.indexrelid`,
      [template],
    );
    const { rows: others } = await admin.query<{ kind: string; name: string }>(
      `SELECT c.relkind AS kind, c.relname AS name FROM pg_class c
       WHERE c.relnamespace = $1::regnamespace AND c.relkind NOT IN ('r', 'i')`,
      [template],
    );
    // Sequences (a serial column's default would name the template's), views and the like: the
    // copy would share them or miss them. The migrations make none; one that does needs this
    // script to learn it.
    if (others.length > 0) {
      const found = others.map(({ kind, name }) => `${name} (relkind ${kind})`).join(', ');
      throw new Error(`The test database template cannot copy ${found}`);
    }
    const source = (table: string) => `${quote(template)}.${quote(table)}`;
    const script: string[] = [];
    for (const { name } of tables) {
      script.push(
        `CREATE TABLE ${quote(name)} (LIKE ${source(name)} INCLUDING ALL EXCLUDING CONSTRAINTS EXCLUDING INDEXES)`,
      );
    }
    const refill = tables.map(
      ({ name }) => `INSERT INTO ${quote(name)} SELECT * FROM ${source(name)}`,
    );
    script.push(...refill);
    for (const { tbl, name, def } of constraints) {
      script.push(`ALTER TABLE ${quote(tbl)} ADD CONSTRAINT ${quote(name)} ${def}`);
    }
    const qualified = new RegExp(
      ` ON (ONLY )?(${quote(template)}|${template})\\.`.replaceAll('"', '\\"'),
      'g',
    );
    for (const { def } of indexes) {
      script.push(def.replace(qualified, (_match, only?: string) => ` ON ${only ?? ''}`));
    }
    const emptied = referencingFirst(
      tables.map(({ name }) => name),
      constraints,
    ).map((name) => `DELETE FROM ${quote(name)}`);
    // A lock left by a killed process's connection fails the reset instead of holding it up.
    const resetScript = ["SET LOCAL lock_timeout = '2s'", ...emptied, ...refill].join(';\n');
    return { script: script.join(';\n'), resetScript };
  } finally {
    await admin.query('ROLLBACK');
  }
}

/** The tables in an order that empties them: each after every table whose foreign keys reference it. */
function referencingFirst(tables: string[], constraints: { tbl: string; ref: string | null }[]) {
  const referencedBy = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const { tbl, ref } of constraints) {
    if (ref !== null && ref !== tbl) referencedBy.get(ref)?.add(tbl);
  }
  const order: string[] = [];
  const placed = new Set<string>();
  const place = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const child of referencedBy.get(table) ?? []) place(child, path);
    placed.add(table);
    order.push(table);
  };
  for (const table of tables) place(table, new Set());
  return order;
}

/**
 * Empties a copy a test is done with and gives it the template's rows again, through `handle`'s
 * own pool (as `copyPostgresTemplate`); false when its tables are no longer the template's or it
 * could not be emptied, and the copy is then not to be used.
 */
export async function resetPostgresCopy(
  handle: DbHandle,
  schema: string,
  template: PostgresTemplate,
): Promise<boolean> {
  try {
    const { rows } = await handle.db.executeQuery<{ fingerprint: string }>(
      CompiledQuery.raw(FINGERPRINT, [schema]),
    );
    if (rows[0]?.fingerprint !== template.fingerprint) return false;
    await sql.raw(template.resetScript).execute(handle.db);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes `schema` a copy of the template through `handle`'s own pool, whose connections have
 * search_path set to `schema`: the statements, sent as one, run as one transaction there. The pool
 * is then in use, as after migrating, so that destroying the handle closes it (Kysely's destroy
 * does nothing to a pool it never opened, and a test of "the database is gone" would find it
 * still there).
 */
export async function copyPostgresTemplate(
  handle: DbHandle,
  schema: string,
  template: PostgresTemplate,
): Promise<void> {
  await sql.raw(`CREATE SCHEMA ${quote(schema)};\n${template.script}`).execute(handle.db);
}
