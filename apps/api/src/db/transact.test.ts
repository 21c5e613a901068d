import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
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
