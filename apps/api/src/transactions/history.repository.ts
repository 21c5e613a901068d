/**
 * All SQL of the merchant's history: its pages and filters, and the figures at a glance. Every
 * query reads an index that starts with its filter and ends with the list's order (migration 003,
 * docs/performance.md). Functions take `db` or `trx` first.
 */
import { sql, type Kysely } from 'kysely';
import type { Database, TransactionRow } from '../db/schema.ts';

type Db = Kysely<Database>;

/** Which payments a history page holds. */
export interface ListQuery {
  /** Rows to read (one more than a page, to know whether another follows). */
  limit: number;
  /** Only rows after this position in the list's order. */
  after?: { createdAt: string; id: string };
  statuses?: readonly TransactionRow['status'][];
  /** Created at or after this instant, and before `until` (ISO 8601 UTC). */
  since?: string;
  until?: string;
  /** A normalised phone number, or else a receipt (upper case) or the start of a reference. */
  phone?: string;
  text?: string;
}

/**
 * Newest first, ordered by (created_at, id) so that rows with the same instant neither repeat nor
 * vanish between pages, also while new payments arrive (they sort before every cursor).
 */
export async function listTransactions(db: Db, query: ListQuery): Promise<TransactionRow[]> {
  const { after, statuses, since, until, phone, text } = query;
  return db
    .selectFrom('transactions')
    .selectAll()
    .$if(after !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('created_at', '<', after!.createdAt),
          eb.and([eb('created_at', '=', after!.createdAt), eb('id', '<', after!.id)]),
        ]),
      ),
    )
    .$if(statuses !== undefined, (q) => q.where('status', 'in', statuses!))
    .$if(since !== undefined, (q) => q.where('created_at', '>=', since!))
    .$if(until !== undefined, (q) => q.where('created_at', '<', until!))
    .$if(phone !== undefined, (q) => q.where('phone_number', '=', phone!))
    .$if(text !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('mpesa_receipt_number', '=', text!.toUpperCase()),
          eb(eb.fn('substr', ['reference', eb.val(1), eb.val(text!.length)]), '=', text!),
        ]),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .execute();
}

/** Payments started in each period (by status), with their amounts. */
export interface PeriodTotals {
  /** Index of the period in the `bounds` given: 0 for the first. */
  period: number;
  status: TransactionRow['status'];
  count: number;
  amount: number;
}

/**
 * Counts and sums payments by period and status in one pass over the creation index: `bounds`
 * are the periods' starts, in order, and `end` the last one's end (ISO 8601 UTC).
 */
export async function totalsByPeriod(
  db: Db,
  bounds: readonly string[],
  end: string,
): Promise<PeriodTotals[]> {
  if (bounds.length === 0) return [];
  const period = sql<number>`case ${sql.join(
    bounds.slice(1).map((bound, index) => sql`when created_at < ${bound} then ${sql.lit(index)}`),
    sql` `,
  )} else ${sql.lit(bounds.length - 1)} end`;
  const rows = await db
    .selectFrom('transactions')
    .select((eb) => [
      period.as('period'),
      'status',
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>('amount').as('amount'),
    ])
    .where('created_at', '>=', bounds[0]!)
    .where('created_at', '<', end)
    .groupBy(['period', 'status'])
    .execute();
  return rows.map((row) => ({
    period: Number(row.period),
    status: row.status,
    count: Number(row.count),
    amount: Number(row.amount ?? 0),
  }));
}
