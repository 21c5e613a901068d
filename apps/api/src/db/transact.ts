/**
 * The writes along a payment's way go through `transact`: saving it, Daraja's acknowledgement, the
 * idempotency key and its answer, a callback's body and then its effect, reconciliation's outcomes
 * and a person's review. (The reconciler's leases and the clean-ups are single statements, committed
 * on their own.) On PostgreSQL it is a plain database
 * transaction: the server already makes concurrent commits share their flushes. On SQLite it is a
 * group commit: the transactions waiting at the same time run one after another inside a single
 * database transaction, each in a savepoint of its own, and are committed (and flushed to disk) once.
 *
 * Nothing is given up for it. A caller's promise resolves only after the commit that holds its work
 * has reached the disk, so no answer is sent and no prompt is pushed before its record is durable;
 * a transaction that fails is rolled back to its savepoint and leaves the others of its group as
 * they were; and when the commit itself fails, every transaction of the group fails with it, as a
 * transaction on its own would. Each one sees what the earlier ones of its group wrote, exactly as
 * if they had run one after another, which on SQLite's single connection they would have.
 *
 * Why: `node:sqlite` waits for the disk on the main thread, and with `synchronous = FULL` each
 * commit took about 350 µs of an API under load, two per payment and two per callback: most of a
 * callback's time (docs/performance.md).
 *
 * The work given must only use the database: it holds the one connection while it runs, so waiting
 * on anything else (an HTTP call) would hold up every transaction grouped with it.
 */
import {
  CompiledQuery,
  PostgresAdapter,
  SqliteAdapter,
  type Kysely,
  type Transaction,
} from 'kysely';
import type { Database } from './schema.ts';

type Work<T> = (trx: Transaction<Database>) => Promise<T>;

interface Waiting {
  work: Work<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Settled = { ok: true; value: unknown } | { ok: false; error: unknown };

/** How long a group waits between tries while another process holds SQLite's write lock. */
const LOCK_RETRY_MS = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SQLite's SQLITE_BUSY: another process holds the lock (or changed the snapshot this one read). */
function isLockBusy(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  return code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' && (errcode & 0xff) === 5;
}

class GroupCommit {
  readonly #db: Kysely<Database>;
  #waiting: Waiting[] = [];
  #scheduled = false;
  /**
   * How long a group tries again, off the main thread's back, while another process holds the
   * write lock (DATABASE_BUSY_TIMEOUT_MS); 0: not at all (SQLite's own busy timeout waits).
   */
  lockWaitMs = 0;
  /** Whether the database's file is no longer the one opened (removed, or replaced). */
  fileGone: () => boolean = () => false;
  /** Commits made, and transactions they held (for tests and measurements). */
  commits = 0;
  transactions = 0;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // After the requests read in this turn of the event loop have had their turn to join.
        setImmediate(() => void this.#commitWaiting());
      }
    });
  }

  async #commitWaiting(): Promise<void> {
    while (this.#waiting.length > 0) {
      const group = this.#waiting;
      this.#waiting = [];
      const since = Date.now();
      let settled: Settled[] | undefined;
      let failure: unknown;
      // node:sqlite waits for a lock on the main thread, stopping every request: SQLite's own wait
      // is kept short (db/create-db.ts), and the group is tried again after a pause instead, the
      // whole of it, until the lock is free or DATABASE_BUSY_TIMEOUT_MS has passed.
      do {
        if (settled === undefined && failure !== undefined) await sleep(LOCK_RETRY_MS);
        ({ settled, failure } = await this.#commit(group));
      } while (
        settled === undefined &&
        isLockBusy(failure) &&
        Date.now() - since + LOCK_RETRY_MS <= this.lockWaitMs
      );
      if (settled === undefined) {
        // Nothing of the group was kept.
        for (const waiting of group) waiting.reject(failure);
        continue;
      }
      group.forEach((waiting, i) => {
        const result = settled[i]!;
        if (result.ok) waiting.resolve(result.value);
        else waiting.reject(result.error);
      });
    }
    this.#scheduled = false;
  }

  /** One try at the group: what each of its transactions gave, or why none was kept. */
  async #commit(
    group: readonly Waiting[],
  ): Promise<
    { settled: Settled[]; failure?: undefined } | { settled?: undefined; failure: unknown }
  > {
    // Written to a file no longer in its folder, the group would be lost at the next start.
    if (this.fileGone()) return { failure: fileGoneError() };
    let lost: { error: unknown } | undefined;
    try {
      const settled = await inTransaction(this.#db, async (trx) => {
        const results: Settled[] = [];
        for (const { work } of group) {
          try {
            // Alone, it needs no savepoint: its failure rolls back the database transaction.
            results.push(
              group.length === 1 ? await alone(work, trx) : await inSavepoint(trx, work),
            );
          } catch (error) {
            lost = { error };
            throw error;
          }
        }
        return results;
      });
      this.commits += 1;
      this.transactions += group.length;
      return { settled };
    } catch (error) {
      // What ended it is said, rather than the failure of the rollback that followed.
      return { failure: lost ? lost.error : error };
    }
  }
}

/**
 * Runs one transaction's work in a savepoint: undone on its own if it fails. When the failure took
 * the whole database transaction with it (SQLite does so for a full disk or an I/O error), the
 * savepoint is gone too, and the error ends the group.
 */
async function inSavepoint(trx: Transaction<Database>, work: Work<unknown>): Promise<Settled> {
  await trx.executeQuery(SAVEPOINT);
  let result: Settled;
  try {
    result = { ok: true, value: await work(trx) };
  } catch (error) {
    // Another process holds the lock: not this transaction's failure but the group's, tried again.
    if (isLockBusy(error)) throw error;
    try {
      await trx.executeQuery(ROLLBACK_TO_SAVEPOINT);
    } catch {
      throw error;
    }
    result = { ok: false, error };
  }
  await trx.executeQuery(RELEASE_SAVEPOINT);
  return result;
}

const SAVEPOINT = CompiledQuery.raw('savepoint grouped');
const ROLLBACK_TO_SAVEPOINT = CompiledQuery.raw('rollback to grouped');
const RELEASE_SAVEPOINT = CompiledQuery.raw('release grouped');

async function alone(work: Work<unknown>, trx: Transaction<Database>): Promise<Settled> {
  return { ok: true, value: await work(trx) };
}

const groups = new WeakMap<Kysely<Database>, GroupCommit>();

function groupFor(db: Kysely<Database>): GroupCommit | null {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return null;
  let group = groups.get(db);
  if (!group) {
    group = new GroupCommit(db);
    groups.set(db, group);
  }
  return group;
}

/**
 * Runs `work` in a database transaction and commits it; rolls it back if either fails. The first
 * failure is the one thrown: SQLite has already undone a transaction whose commit failed for a full
 * disk or an I/O error, and a PostgreSQL connection may be gone, so the rollback that follows can
 * fail too ("no transaction is active"), and Kysely's own `transaction()` would throw that instead,
 * hiding why (a 500 where the database was unavailable: db/unavailable.ts).
 */
async function inTransaction<T>(db: Kysely<Database>, work: Work<T>): Promise<T> {
  const trx = await db.startTransaction().execute();
  try {
    const result = await work(trx);
    await trx.commit().execute();
    return result;
  } catch (error) {
    if (!trx.isCommitted && !trx.isRolledBack) {
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
    }
    throw error;
  }
}

/** Runs `work` in a database transaction; resolves with its result once that is committed. */
export function transact<T>(db: Kysely<Database>, work: Work<T>): Promise<T> {
  const group = groupFor(db);
  return group ? group.run(work) : inTransaction(db, work);
}

/**
 * How a server's SQLite writes meet a file that cannot take them (create-db.ts): they wait up to
 * `lockWaitMs` (DATABASE_BUSY_TIMEOUT_MS) for another process's lock, tried again after pauses
 * rather than waited for on the main thread; and once `fileGone()` says the file was removed or
 * replaced while the app ran, they are answered 503 (as SQLite's "cannot open") instead of kept in
 * a file that the next start will not find.
 */
export function guardWrites(
  db: Kysely<Database>,
  { lockWaitMs, fileGone }: { lockWaitMs: number; fileGone?: () => boolean },
): void {
  const group = groupFor(db);
  if (!group) return;
  group.lockWaitMs = lockWaitMs;
  if (fileGone) group.fileGone = fileGone;
}

export const FILE_GONE_MESSAGE = 'the database file was removed or replaced while the app ran';

function fileGoneError(): Error {
  return Object.assign(new Error(FILE_GONE_MESSAGE), { code: 'ERR_SQLITE_ERROR', errcode: 14 });
}

/** How many commits held how many transactions on this database, so far (SQLite only). */
export function groupCommitCounts(db: Kysely<Database>): {
  commits: number;
  transactions: number;
} {
  const group = groupFor(db);
  return { commits: group?.commits ?? 0, transactions: group?.transactions ?? 0 };
}

/**
 * Runs `work`, which must be a single statement, as a transaction of its own. On PostgreSQL a
 * statement outside a transaction block is one already, atomic and on disk when it returns
 * (`synchronous_commit` stays on): it is sent without `begin` and `commit`, two round trips fewer.
 * On SQLite it joins the group commit, as `transact` does.
 */
export function writeOne<T>(
  db: Kysely<Database>,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const group = groupFor(db);
  return group ? group.run(work) : work(db);
}

/** Whether `db` (or a transaction on it) talks to PostgreSQL. */
export function onPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
