/**
 * The search's prefixes are read off their indexes (migration 016), on both databases: every query
 * the history runs for a search is explained by the database, and each one that looks for the
 * start of a reference or the end of a phone number names that index. A database uses an index on
 * an expression only for a query that writes the expression as the index does, so a change to
 * either side (the migration's or the repository's) shows here. The plans at a million payments
 * are in docs/performance.md.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CompiledQuery,
  sql,
  type KyselyPlugin,
  type QueryId,
  type RootOperationNode,
} from 'kysely';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { listTransactions, type ListQuery } from './history.repository.ts';
import { selectionTotals } from './selection-totals.repository.ts';

const PAYMENTS = 3000;

for (const dialect of DIALECTS) {
  describe(`the search's query plans (${dialect})`, () => {
    let database: TestDatabase;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      const rows = Array.from({ length: PAYMENTS }, (_, i) =>
        storedPayment(
          `tx-${String(i).padStart(5, '0')}`,
          new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
          {
            reference: i % 3 === 0 ? `Sukari ${i}` : `INV-${i}`,
            // Numbers that end differently: 7919 (i = 1) is the end of one.
            phone_number: `2547${String(i * 7919).padStart(8, '0')}`,
          },
        ),
      );
      for (let i = 0; i < rows.length; i += 500) {
        await database.db
          .insertInto('transactions')
          .values(rows.slice(i, i + 500))
          .execute();
      }
      // As autovacuum would: PostgreSQL plans from its statistics, and reads an index alone where
      // its visibility map says the rows are visible. (SQLite keeps no statistics unless asked, and
      // the app never asks.)
      if (dialect === 'postgres') await sql`vacuum analyze transactions`.execute(database.db);
    });
    afterEach(async () => {
      await database.destroy();
    });

    /**
     * How the index is read: on PostgreSQL alone, never visiting the rows (the index carries the
     * column its expression is made of, migration 016); SQLite says "COVERING INDEX".
     */
    const readAlone = (index: string) =>
      dialect === 'postgres' ? `Index Only Scan using ${index}` : `COVERING INDEX ${index}`;

    /** Each query a search runs (a page, or with `totals` the selection's totals), with its plan. */
    async function plansOf(
      query: ListQuery,
      totals = false,
    ): Promise<{ sql: string; plan: string }[]> {
      // Every query built is shown to the plugin, a subquery on its own too; only those run
      // have their results shown, by the same id.
      const built = new Map<QueryId, RootOperationNode>();
      const run: QueryId[] = [];
      const watcher: KyselyPlugin = {
        transformQuery: ({ node, queryId }) => {
          built.set(queryId, node);
          return node;
        },
        transformResult: async ({ result, queryId }) => {
          run.push(queryId);
          return result;
        },
      };
      const watched = database.db.withPlugin(watcher);
      await (totals ? selectionTotals(watched, query) : listTransactions(watched, query));
      const executor = database.db.getExecutor();
      return Promise.all(
        run.map(async (queryId) => {
          const node = built.get(queryId)!;
          const compiled = executor.compileQuery(node, queryId);
          const explain = dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
          const { rows } = await database.db.executeQuery<Record<string, unknown>>(
            CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]),
          );
          const plan = rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
          return { sql: compiled.sql, plan };
        }),
      );
    }

    it('reads the start of a reference, in any case, off the lower-cased reference index', async () => {
      const plans = await plansOf({ limit: 51, text: 'SUKARI 12' });
      const ranges = plans.filter((each) => each.sql.includes('lower(reference) >='));
      // Counted, then sorted: both off the index alone.
      expect(ranges).toHaveLength(2);
      for (const { plan } of ranges) {
        expect(plan).toContain(readAlone('transactions_reference_lower_idx'));
      }
    });

    it('reads the end of a phone number off the reversed numbers index', async () => {
      const plans = await plansOf({ limit: 51, text: '7919', phoneEnding: '7919' });
      const ranges = plans.filter((each) => each.sql.includes('substr(phone_number, 16, 1)'));
      expect(ranges).toHaveLength(2);
      for (const { plan } of ranges) {
        expect(plan).toContain(readAlone('transactions_phone_reversed_idx'));
      }
      // No reference starts with 7919: counted off the index, and nothing more is read.
      const references = plans.filter((each) => each.sql.includes('lower(reference) >='));
      expect(references).toHaveLength(1);
      for (const { plan } of references) {
        expect(plan).toContain(readAlone('transactions_reference_lower_idx'));
      }
    });

    it('adds up what a reference’s start selects off the reference index alone', async () => {
      const plans = await plansOf({ limit: 51, text: 'SUKARI 12', since: '2026-11-01' }, true);
      const ranges = plans.filter((each) => each.sql.includes('lower(reference) >='));
      // Its own part, and the "not found by it" of the receipt's part after it.
      expect(ranges).toHaveLength(2);
      const own = ranges.find((each) => !each.sql.includes('mpesa_receipt_number'));
      expect(own?.plan).toContain(readAlone('transactions_reference_lower_idx'));
    });
  });
}
