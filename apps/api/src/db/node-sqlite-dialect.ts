/**
 * Kysely's SqliteDialect speaks better-sqlite3's interface. This adapter lets it drive Node's built-in
 * `node:sqlite` instead, so the embedded database needs no native build step.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

type SqlValue = null | number | bigint | string | NodeJS.ArrayBufferView;

function bindable(parameters: ReadonlyArray<unknown>): SqlValue[] {
  return parameters.map((value) => {
    if (value === undefined) return null;
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (value instanceof Date) return value.toISOString();
    return value as SqlValue;
  });
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;
  readonly #database: DatabaseSync;

  constructor(database: DatabaseSync, statement: StatementSync) {
    this.#database = database;
    this.#statement = statement;
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...bindable(parameters));
  }

  run(parameters: ReadonlyArray<unknown>) {
    const { changes, lastInsertRowid } = this.#statement.run(...bindable(parameters));
    return { changes, lastInsertRowid };
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    // An iteration holds its statement until it ends (or is stopped): it gets one of its own, so
    // that the kept one is never left half-way through.
    const statement = this.#database.prepare(this.#statement.sourceSQL);
    return statement.iterate(...bindable(parameters));
  }
}

/**
 * Prepared statements kept per database, by SQL text, the least recently used given up first. A
 * statement prepared per query (as Kysely asks) costs its preparation each time, and its native
 * memory stays until V8 happens to collect the small object that holds it: 13 MB more after each
 * export of 187,000 rows, in 1,000-row queries, until a full collection.
 */
const STATEMENTS_KEPT = 200;

class NodeSqliteDatabase implements SqliteDatabase {
  readonly #database: DatabaseSync;
  readonly #statements = new Map<string, NodeSqliteStatement>();

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  prepare(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (statement) {
      this.#statements.delete(sql);
    } else {
      statement = new NodeSqliteStatement(this.#database, this.#database.prepare(sql));
      if (this.#statements.size >= STATEMENTS_KEPT) {
        this.#statements.delete(this.#statements.keys().next().value!);
      }
    }
    this.#statements.set(sql, statement);
    return statement;
  }

  close(): void {
    this.#statements.clear();
    if (this.#database.isOpen) this.#database.close();
  }
}

/** How long a write waits for another process's lock unless told (DATABASE_BUSY_TIMEOUT_MS). */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens the file with settings that keep committed data through a process crash or power loss:
 * write-ahead logging, full fsync on commit, and a busy timeout for a second process (e.g. a migration
 * command) touching the same file. node:sqlite waits for a lock on the main thread, stopping
 * everything else: the server keeps this wait to a moment and waits longer between tries instead
 * (create-db.ts, transact.ts); a lock held longer still fails the write with SQLITE_BUSY, answered
 * 503 (db/unavailable.ts).
 */
export function createNodeSqliteDialect(
  filename: string,
  busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS,
): SqliteDialect {
  return new SqliteDialect({
    database: async () => {
      const database = new DatabaseSync(filename);
      database.exec('PRAGMA journal_mode = WAL');
      database.exec('PRAGMA synchronous = FULL');
      database.exec(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
      database.exec('PRAGMA foreign_keys = ON');
      return new NodeSqliteDatabase(database);
    },
  });
}
