/**
 * The SQL of the figures at a glance (GET /api/mpesa/summary): payments by period and status, read
 * from the creation index alone (migration 004, docs/performance.md). Functions take `db` first.
 */
import type { Kysely } from 'kysely';
import type { Database, TransactionRow } from '../../db/schema.ts';

type Db = Kysely<Database>;

/** Payments started in each period (by status), with their amounts. */
export interface PeriodTotals {
  /** Index of the period in the `bounds` given: 0 for the first. */
  period: number;
  status: TransactionRow['status'];
  count: number;
  amount: number;
}

/**
 * Counts and sums payments by period and status: `bounds` are the periods' starts, in order, and
 * `end` the last one's end (ISO 8601 UTC). One query per period, each read from the creation
 * index alone (it carries status and amount); one query for all periods would have to work out
 * each row's period and group by it, three times the work at a million payments.
 */
export async function totalsByPeriod(
  db: Db,
  bounds: readonly string[],
  end: string,
): Promise<PeriodTotals[]> {
  const periods = await Promise.all(
    bounds.map((start, period) =>
      db
        .selectFrom('transactions')
        .select((eb) => [
          'status',
          eb.fn.countAll<number>().as('count'),
          eb.fn.sum<number>('amount').as('amount'),
        ])
        .where('created_at', '>=', start)
        .where('created_at', '<', bounds[period + 1] ?? end)
        .groupBy('status')
        .execute()
        .then((rows) =>
          rows.map((row) => ({
            period,
            status: row.status,
            count: Number(row.count),
            amount: Number(row.amount ?? 0),
          })),
        ),
    ),
  );
  return periods.flat();
}
