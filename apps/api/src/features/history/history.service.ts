/**
 * The history, as a merchant reads it: pages newest first with the filters applied, and the same
 * selection exported as CSV, streamed a batch at a time so that no export holds all its rows.
 */
import { Readable } from 'node:stream';
import { normaliseKenyanPhone } from '@mpesa/shared';
import type {
  ExportLanguage,
  PeriodSummary,
  Summary,
  Transaction,
  TransactionFilters,
} from '@mpesa/shared/contract';
import { invalidCursor } from '../../errors.ts';
import { businessDayOf, nextDay, previousDay, startOfBusinessDay } from '../../lib/business-day.ts';
import { CSV_COLUMNS, csvHeader, csvRecord } from './history-csv.ts';
import { createdPosition, decodeCursor, pageOf } from '../../db/list-cursor.ts';
import { toTransactionDto } from '../payments/index.ts';
import type { PaymentDeps } from '../payments/index.ts';
import * as repo from './history.repository.ts';
import {
  selectionTotals as totalsOfSelection,
  type SelectionTotals,
} from './selection-totals.repository.ts';
import { totalsByPeriod, type PeriodTotals } from './summary.repository.ts';

export type HistoryDeps = Pick<PaymentDeps, 'db'> & { businessTimeZone: string };

/** The chart's business days. */
const SUMMARY_DAYS = 14;

/** Rows read per query while exporting. */
const EXPORT_BATCH = 1000;

/**
 * Rows sent as one piece of text: about 20 KB, short-lived and collected young. A whole batch as
 * one string (190 KB) would be allocated with the long-lived objects and stay until a full
 * collection: 190 MB of them for a million rows before the first one ran.
 */
const EXPORT_CHUNK = 100;

/**
 * The fewest digits that a search also looks for at the end of phone numbers. Fewer would match
 * too many numbers to help (one in a thousand ends with "001": hundreds of a busy shop's payers),
 * so digits that short are looked for in receipts and references only.
 */
export const PHONE_ENDING_MIN_DIGITS = 4;
const PHONE_ENDING = new RegExp(`^[0-9]{${PHONE_ENDING_MIN_DIGITS},}$`);

/**
 * What the search text `q` looks for: a whole phone number in any accepted form finds that
 * number's payments alone; any other text finds a receipt, or the start of a reference, in any
 * letter case; and when it is only digits, four or more, the payments whose phone number ends with
 * them too: "0001" may be the end of a number or the start of an invoice, and the merchant wants
 * both.
 */
function searchFor(q: string): Pick<repo.ListQuery, 'phone' | 'text' | 'phoneEnding'> {
  const phone = normaliseKenyanPhone(q);
  if (phone) return { phone };
  return PHONE_ENDING.test(q) ? { text: q, phoneEnding: q } : { text: q };
}

/** The filters as a query on the transactions, without the page. */
function selectionFor(
  filters: TransactionFilters,
  timeZone: string,
): Omit<repo.ListQuery, 'limit' | 'after'> {
  const { status, channel, from, to, q } = filters;
  return {
    ...(status ? { statuses: status } : {}),
    ...(channel ? { channels: channel } : {}),
    ...(from ? { since: startOfBusinessDay(from, timeZone) } : {}),
    ...(to ? { until: startOfBusinessDay(nextDay(to), timeZone) } : {}),
    ...(q === undefined ? {} : searchFor(q)),
  };
}

/**
 * One page of the history, newest first, with the filters applied, and the cursor of the next
 * page (null on the last).
 */
export async function listTransactions(
  deps: HistoryDeps,
  page: { limit: number; cursor?: string | undefined; filters: TransactionFilters },
): Promise<{ data: Transaction[]; nextCursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  if (after === null) {
    throw invalidCursor();
  }
  const rows = await repo.listTransactions(deps.db, {
    ...selectionFor(page.filters, deps.businessTimeZone),
    limit: page.limit + 1,
    ...(after ? { after } : {}),
  });
  const { page: shown, nextCursor } = pageOf(rows, page.limit, createdPosition);
  return { data: shown.map(toTransactionDto), nextCursor };
}

/** What every payment the filters select adds up to (not a page: the whole selection). */
export function selectionTotals(
  deps: HistoryDeps,
  filters: TransactionFilters,
): Promise<SelectionTotals> {
  return totalsOfSelection(deps.db, selectionFor(filters, deps.businessTimeZone));
}

/**
 * Every payment the filters select, newest first, as CSV text (history-csv.ts), read and sent a
 * batch at a time. The first batch is read before anything is sent, so that a database that
 * cannot be reached is answered 503 rather than with a header row; one that goes away later ends
 * the stream with an error, which cuts the answer short (the chunked encoding is never finished,
 * and clients report the download as broken).
 */
export async function exportTransactions(
  deps: HistoryDeps & { now: () => Date },
  filters: TransactionFilters,
  /** Told each time a piece of the answer is made, which happens as fast as the client reads. */
  onProgress: () => void = () => {},
  /** The header row's language. */
  language: ExportLanguage = 'en',
): Promise<Readable> {
  const selection = selectionFor(filters, deps.businessTimeZone);
  const batchAfter = (after?: repo.ListQuery['after']) =>
    repo.listTransactions(
      deps.db,
      { ...selection, limit: EXPORT_BATCH, ...(after ? { after } : {}) },
      CSV_COLUMNS,
    );
  /**
   * The batch after `rows`, asked for at once, so that the database reads it while this one is
   * written out (on PostgreSQL, in another process); null after the last batch. A failure is
   * taken up where the batch is awaited, not as an unhandled rejection while lines are written.
   */
  const nextOf = (rows: Awaited<ReturnType<typeof batchAfter>>) => {
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_BATCH) return null;
    const next = batchAfter({ createdAt: last.created_at, id: last.id });
    next.catch(() => {});
    return next;
  };
  const first = await batchAfter();
  async function* lines() {
    onProgress();
    yield csvHeader(deps.businessTimeZone, deps.now(), language);
    for (let rows = first; ;) {
      const next = nextOf(rows);
      for (let start = 0; start < rows.length; start += EXPORT_CHUNK) {
        onProgress();
        yield rows
          .slice(start, start + EXPORT_CHUNK)
          .map((row) => csvRecord(row, deps.businessTimeZone, language))
          .join('');
      }
      if (next === null) return;
      rows = await next;
    }
  }
  return Readable.from(lines());
}

function periodSummary(totals: readonly PeriodTotals[]): PeriodSummary {
  let collected = 0;
  let refunded = 0;
  let refundedCount = 0;
  let count = 0;
  let successCount = 0;
  let pending = 0;
  for (const total of totals) {
    count += total.count;
    if (total.status === 'success') {
      collected += total.amount;
      successCount += total.count;
    }
    // Paid, then given back: not collected, and a success all the same.
    if (total.status === 'refunded') {
      refunded += total.amount;
      refundedCount += total.count;
      successCount += total.count;
    }
    if (total.status === 'pending') pending += total.count;
  }
  const decided = count - pending;
  return {
    collected,
    refunded,
    refundedCount,
    count,
    pendingCount: pending,
    successCount,
    successRate: decided > 0 ? successCount / decided : null,
  };
}

/**
 * Today and the last 7 business days (today included): collected (successes only), payments
 * started and the success rate; and the last 14 business days by status, for the chart.
 */
export async function summary(deps: HistoryDeps & { now: () => Date }): Promise<Summary> {
  const zone = deps.businessTimeZone;
  const today = businessDayOf(deps.now(), zone);
  const days = [today];
  while (days.length < SUMMARY_DAYS) days.unshift(previousDay(days[0]!));
  const totals = await totalsByPeriod(
    deps.db,
    days.map((day) => startOfBusinessDay(day, zone)),
    startOfBusinessDay(nextDay(today), zone),
  );
  const inPeriods = (first: number) => totals.filter((total) => total.period >= first);
  return {
    timeZone: zone,
    today: periodSummary(inPeriods(SUMMARY_DAYS - 1)),
    last7Days: periodSummary(inPeriods(SUMMARY_DAYS - 7)),
    daily: days.map((day, index) => ({
      day,
      byStatus: totals
        .filter((total) => total.period === index)
        .map(({ status, count, amount }) => ({ status, count, amount })),
    })),
  };
}
