/**
 * The node:sqlite adapter keeps prepared statements by SQL text; these check that a kept statement
 * answers each use with its own parameters, also after an iteration that stopped early, and that
 * more distinct statements than are kept still work.
 */
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeSqliteDialect } from './node-sqlite-dialect.ts';

interface Tables {
  numbers: { n: number };
}

describe('the node:sqlite adapter', () => {
  let db: Kysely<Tables>;

  beforeEach(async () => {
    db = new Kysely<Tables>({ dialect: createNodeSqliteDialect(':memory:') });
    await db.schema.createTable('numbers').addColumn('n', 'integer').execute();
    await db
      .insertInto('numbers')
      .values(Array.from({ length: 10 }, (_, n) => ({ n })))
      .execute();
  });
  afterEach(() => db.destroy());

  const above = (n: number) =>
    db.selectFrom('numbers').select('n').where('n', '>', n).orderBy('n').execute();

  it('answers the same SQL again with the new parameters', async () => {
    expect((await above(7)).map((row) => row.n)).toEqual([8, 9]);
    expect((await above(5)).map((row) => row.n)).toEqual([6, 7, 8, 9]);
    await db.insertInto('numbers').values({ n: 10 }).execute();
    expect((await above(8)).map((row) => row.n)).toEqual([9, 10]);
  });

  it('answers the same SQL right after an iteration that stopped half-way', async () => {
    const query = db.selectFrom('numbers').select('n').where('n', '>', 0).orderBy('n');
    for await (const row of query.stream()) if (row.n === 2) break;
    expect((await query.execute()).map((row) => row.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const seen: number[] = [];
    for await (const row of query.stream()) seen.push(row.n);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('prepares more distinct statements than it keeps, each still right', async () => {
    for (let i = 0; i < 450; i++) {
      const { rows } = await sql<{
        v: number;
      }>`select ${sql.lit(i)} + count(*) as v from numbers`.execute(db);
      expect(rows[0]!.v).toBe(i + 10);
    }
    expect((await above(8)).map((row) => row.n)).toEqual([9]);
  });
});
