import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema.ts';
import { isDatabaseUnavailable } from './unavailable.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { countHit } from '../limits/rate-limit.repository.ts';
import { groupCommitCounts, transact } from './transact.ts';

for (const dialect of DIALECTS) {
  describe(`write transactions (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(() => database.destroy());

    const keys = async () =>
      (await database.db.selectFrom('rate_limits').select('key').orderBy('key').execute()).map(
        (row) => row.key,
      );
    const insert = (key: string) =>
      transact(database.db, async (trx) => {
        await trx.insertInto('rate_limits').values({ key, window_index: 1, hits: 1 }).execute();
        return key;
      });

    it('commits transactions started together, each with its own result', async () => {
      const before = groupCommitCounts(database.db);
      const started = Array.from({ length: 20 }, (_, i) =>
        insert(`k${String(i).padStart(2, '0')}`),
      );
      expect(await Promise.all(started)).toEqual(
        Array.from({ length: 20 }, (_, i) => `k${String(i).padStart(2, '0')}`),
      );
      expect(await keys()).toHaveLength(20);
      if (dialect === 'sqlite') {
        // One commit, one wait for the disk, for all twenty.
        const after = groupCommitCounts(database.db);
        expect(after.transactions - before.transactions).toBe(20);
        expect(after.commits - before.commits).toBe(1);
      }
    });

    it('undoes a transaction that fails, and only that one', async () => {
      const refused = new Error('refused after writing');
      const results = await Promise.allSettled([
        insert('a'),
        transact(database.db, async (trx) => {
          await trx
            .insertInto('rate_limits')
            .values({ key: 'b', window_index: 1, hits: 1 })
            .execute();
          throw refused;
        }),
        insert('c'),
      ]);
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      expect((results[1] as PromiseRejectedResult).reason).toBe(refused);
      expect(await keys()).toEqual(['a', 'c']);
    });

    it('lets each transaction see what the ones before it wrote', async () => {
      const counts = await Promise.all(
        Array.from({ length: 5 }, () => transact(database.db, (trx) => countHit(trx, 'one', 1))),
      );
      expect([...counts].sort()).toEqual([1, 2, 3, 4, 5]);
    });

    it('fails a transaction whose commit fails, and keeps none of its writes', async () => {
      await sql`create table parents (id integer primary key)`.execute(database.db);
      await sql`create table children (parent integer references parents (id) deferrable initially deferred)`.execute(
        database.db,
      );
      const [kept, orphan] = await Promise.allSettled([
        insert('kept'),
        transact(database.db, (trx) =>
          sql`insert into children (parent) values (7)`.execute(trx).then(() => 'written'),
        ),
      ]);
      // The missing parent is found only at the commit.
      expect(orphan.status).toBe('rejected');
      expect(await sql`select * from children`.execute(database.db)).toMatchObject({ rows: [] });
      if (dialect === 'sqlite') {
        // It shared its commit: the other transaction failed with it, and nothing was kept.
        expect(kept.status).toBe('rejected');
        expect(await keys()).toEqual([]);
      } else {
        expect(kept.status).toBe('fulfilled');
        expect(await keys()).toEqual(['kept']);
      }
      // Later transactions are not held up by the failure.
      expect(await insert('after')).toBe('after');
      expect(await keys()).toContain('after');
    });

    if (dialect === 'sqlite') {
      it('fails the whole group when one transaction ends the database transaction', async () => {
        const broke = new Error('the database transaction was lost');
        const results = await Promise.allSettled([
          insert('before'),
          transact(database.db, async (trx) => {
            // As SQLite does itself on a full disk or an I/O error.
            await sql`rollback`.execute(trx);
            throw broke;
          }),
          insert('after'),
        ]);
        expect(results.map((result) => result.status)).toEqual([
          'rejected',
          'rejected',
          'rejected',
        ]);
        expect((results[1] as PromiseRejectedResult).reason).toBe(broke);
        expect(await keys()).toEqual([]);
        expect(await insert('later')).toBe('later');
        expect(await keys()).toEqual(['later']);
      });
    }
  });
}

/**
 * A database whose commit fails as SQLite's does on a full disk: it undoes the transaction itself
 * and says SQLITE_FULL, so that the rollback that follows finds no transaction.
 */
function fullAtCommit(): Kysely<Database> {
  const database = new DatabaseSync(':memory:');
  database.exec(
    'create table rate_limits (key text primary key, window_index integer, hits integer)',
  );
  let failCommits = true;
  const statement = (text: string) => {
    const prepared = database.prepare(text);
    return {
      reader: prepared.columns().length > 0,
      all: (parameters: readonly unknown[]) => prepared.all(...(parameters as [])),
      run: (parameters: readonly unknown[]) => {
        if (failCommits && /^commit/i.test(text)) {
          database.exec('rollback');
          throw Object.assign(new Error('database or disk is full'), {
            code: 'ERR_SQLITE_ERROR',
            errcode: 13,
          });
        }
        return prepared.run(...(parameters as []));
      },
      iterate: (parameters: readonly unknown[]) => prepared.iterate(...(parameters as [])),
    };
  };
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({
      database: async () => ({ prepare: statement, close: () => database.close() }),
    }),
  });
  Object.assign(db, { roomAgain: () => (failCommits = false) });
  return db;
}

describe('a commit that fails (sqlite)', () => {
  it('fails every transaction of the group with the commit’s own error, not the rollback’s, and commits again once it can', async () => {
    const db = fullAtCommit();
    const insert = (key: string) =>
      transact(db, (trx) =>
        trx.insertInto('rate_limits').values({ key, window_index: 1, hits: 1 }).execute(),
      );
    try {
      const results = await Promise.allSettled([insert('a'), insert('b')]);
      for (const result of results) {
        expect(result.status).toBe('rejected');
        expect((result as PromiseRejectedResult).reason).toMatchObject({ errcode: 13 });
        expect(isDatabaseUnavailable((result as PromiseRejectedResult).reason)).toBe(true);
      }
      const alone = await Promise.allSettled([insert('c')]);
      expect((alone[0] as PromiseRejectedResult).reason).toMatchObject({ errcode: 13 });

      (db as unknown as { roomAgain(): void }).roomAgain();
      await insert('d');
      expect(await db.selectFrom('rate_limits').select('key').execute()).toEqual([{ key: 'd' }]);
    } finally {
      await db.destroy();
    }
  });
});
