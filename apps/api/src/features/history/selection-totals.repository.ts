/**
 * What a selection of the history adds up to, over the whole selection rather than a page (the
 * line under a filtered list): the same filters and search as the list's pages
 * (history.repository.ts), counted.
 */
import type { Expression, ExpressionBuilder, Kysely, RawBuilder, SqlBool } from 'kysely';
import type { Database } from '../../db/schema.ts';
import {
  LOWER_REFERENCE,
  REVERSED_PHONE,
  filtered,
  lowerCaseAtoZ,
  prefixEnd,
  type Condition,
  type Selection,
} from './history.repository.ts';

type Db = Kysely<Database>;

/** What a selection of the history adds up to: its payments, and those of them paid. */
export interface SelectionTotals {
  count: number;
  /** Payments of the selection that succeeded (refunded ones are no longer paid), and their sum. */
  paidCount: number;
  paid: number;
}

/**
 * How many payments the filters select and what those paid, over the whole selection rather than
 * a page. A search's three parts (a reference's start, a receipt, a phone number's end) are counted
 * apart, each without what an earlier part found, so that a payment found by two counts once: the
 * reference's start off its index alone (migration 017: it carries the amount, status and channel;
 * a common word is a fifth of all payments), then the receipt's handful of rows and the phone
 * numbers' few, each read by its own index. One query with the three ORed read the whole table for
 * a common word on PostgreSQL (450 ms at a million payments, against 60).
 */
export async function selectionTotals(
  db: Db,
  query: Omit<Selection, 'after'>,
): Promise<SelectionTotals> {
  const { text, phoneEnding } = query;
  if (text === undefined) return totalsOf(db, query, (select) => select);
  type Where = ExpressionBuilder<Database, 'transactions'>;
  const inRange = (eb: Where, key: RawBuilder<string>, prefix: string) => {
    const end = prefixEnd(prefix);
    return end === null
      ? eb(key, '>=', prefix)
      : eb.and([eb(key, '>=', prefix), eb(key, '<', end)]);
  };
  // A part's own condition, and "not found by it" for the parts after it: a reference or receipt
  // that is NULL finds nothing (coalesce, since NOT NULL is NULL).
  const parts: ((eb: Where) => Expression<SqlBool>)[] = [
    (eb) => inRange(eb, LOWER_REFERENCE, lowerCaseAtoZ(text)),
    (eb) => eb('mpesa_receipt_number', '=', text.toUpperCase()),
    ...(phoneEnding === undefined
      ? []
      : [(eb: Where) => inRange(eb, REVERSED_PHONE, [...phoneEnding].reverse().join(''))]),
  ];
  const counted = await Promise.all(
    parts.map((part, index) =>
      totalsOf(db, query, (select) =>
        select.where((eb) =>
          eb.and([
            part(eb),
            ...parts
              .slice(0, index)
              .map((earlier) => eb.not(eb.fn.coalesce(earlier(eb), eb.lit(false)))),
          ]),
        ),
      ),
    ),
  );
  return counted.reduce((sum, one) => ({
    count: sum.count + one.count,
    paidCount: sum.paidCount + one.paidCount,
    paid: sum.paid + one.paid,
  }));
}

/** The totals of the rows the filters and `condition` select. */
async function totalsOf(
  db: Db,
  query: Omit<Selection, 'after'>,
  condition: Condition,
): Promise<SelectionTotals> {
  const row = await filtered(db, query, condition)
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      eb.fn
        .sum<number>(eb.case().when('status', '=', 'success').then(1).else(0).end())
        .as('paidCount'),
      eb.fn
        .sum<number>(eb.case().when('status', '=', 'success').then(eb.ref('amount')).else(0).end())
        .as('paid'),
    ])
    .executeTakeFirstOrThrow();
  return {
    count: Number(row.count),
    paidCount: Number(row.paidCount ?? 0),
    paid: Number(row.paid ?? 0),
  };
}
