/**
 * Money out where the money shows (issue 37): the payouts a page at a time with the history's
 * filters (statuses, the business days they were proposed on), money out today and over the last
 * 7 business days beside the history's money in, and the payouts as CSV. None of it is ever counted
 * with the payments received (features/history/).
 */
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import {
  isPhonePayout,
  type Payout,
  type PayoutFilters,
  type PayoutSummary,
} from '@mpesa/shared/contract-payouts';
import type { ExportLanguage } from '@mpesa/shared/contract';
import { createdPosition, decodeCursor, pageOf } from '../../db/list-cursor.ts';
import type { Database, PayoutRow } from '../../db/schema.ts';
import { invalidCursor } from '../../errors.ts';
import { businessDayOf, nextDay, previousDay, startOfBusinessDay } from '../../lib/business-day.ts';
import {
  CSV_BOM,
  csvLine,
  spreadsheetPhone,
  spreadsheetTime,
  zoneLabel,
} from '../history/index.ts';
import { toPayoutDto } from './payout-dto.ts';
import * as repo from './payouts.repository.ts';

interface HistoryDeps {
  db: Kysely<Database>;
  now: () => Date;
  timeZone: string;
}

/** The filters' business days as the instants [since, until) the payouts were proposed in. */
function selectionOf(filters: PayoutFilters, timeZone: string): repo.PayoutSelection {
  return {
    statuses: filters.status,
    since: filters.from ? startOfBusinessDay(filters.from, timeZone) : undefined,
    until: filters.to ? startOfBusinessDay(nextDay(filters.to), timeZone) : undefined,
  };
}

/** A page of the payouts the filters select, newest first, and where the next page starts. */
export async function listPayoutPage(
  deps: HistoryDeps,
  filters: PayoutFilters,
  page: { cursor?: string | undefined; limit: number },
): Promise<{ payouts: Payout[]; nextCursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  if (after === null) throw invalidCursor();
  const rows = await repo.listPayoutsPage(
    deps.db,
    selectionOf(filters, deps.timeZone),
    after,
    page.limit + 1,
  );
  const { page: shown, nextCursor } = pageOf(rows, page.limit, createdPosition);
  return { payouts: shown.map(toPayoutDto), nextCursor };
}

/** Money out today and over the last 7 business days (today included), and those waiting. */
export async function payoutSummary(deps: HistoryDeps): Promise<PayoutSummary> {
  const today = businessDayOf(deps.now(), deps.timeZone);
  let weekStart = today;
  for (let day = 1; day < 7; day++) weekStart = previousDay(weekStart);
  const end = startOfBusinessDay(nextDay(today), deps.timeZone);
  const [day, week, waiting] = await Promise.all([
    repo.paidOutBetween(deps.db, startOfBusinessDay(today, deps.timeZone), end),
    repo.paidOutBetween(deps.db, startOfBusinessDay(weekStart, deps.timeZone), end),
    repo.countWaiting(deps.db),
  ]);
  const inShillings = ({ count, amount, chargeCents }: typeof day) => ({
    count,
    amount,
    charges: chargeCents / 100,
  });
  return { today: inShillings(day), last7Days: inShillings(week), waiting };
}

/** The CSV's columns: a heading in each language; `{zone}` is the business time zone's name. */
const COLUMNS = [
  ['Payout ID', 'Kitambulisho cha malipo'],
  ['Proposed at ({zone})', 'Tarehe ya kupendekezwa ({zone})'],
  ['Kind', 'Aina'],
  ['Paid to', 'Analipwa'],
  ['Account', 'Akaunti'],
  ['Amount (KES)', 'Kiasi (KES)'],
  ['Charge (KES)', 'Ada (KES)'],
  ['Status', 'Hali'],
  ['M-PESA receipt', 'Risiti ya M-PESA'],
  ["Receiver's name", 'Jina la mpokeaji'],
  ['Reason', 'Sababu'],
  ['Proposed by', 'Amependekeza'],
  ['Decided by', 'Ameamua'],
  ['Decided at ({zone})', 'Tarehe ya kuamua ({zone})'],
  ['Result', 'Matokeo'],
] as const;

/** How many payouts are read at a time for the CSV. */
const EXPORT_BATCH = 1_000;

function csvRow(row: PayoutRow, timeZone: string): string {
  const time = (instant: string | null) =>
    instant === null ? null : spreadsheetTime(instant, timeZone);
  return csvLine([
    row.id,
    time(row.created_at),
    row.kind,
    // A phone as the history writes one (kept text by a spreadsheet); a till or paybill as it is.
    isPhonePayout(row.kind) ? spreadsheetPhone(row.payee) : row.payee,
    row.account,
    Number(row.amount),
    row.charge_cents === null ? null : Number(row.charge_cents) / 100,
    row.status,
    row.receipt,
    row.receiver_name,
    row.reason,
    row.proposed_by,
    row.decided_by,
    time(row.decided_at),
    row.result_description,
  ]);
}

/** The payouts the filters select as CSV, newest first, read a thousand at a time. */
export function exportPayouts(
  deps: HistoryDeps,
  filters: PayoutFilters,
  language: ExportLanguage = 'en',
): Readable {
  const selection = selectionOf(filters, deps.timeZone);
  const zone = zoneLabel(deps.timeZone, deps.now(), language);
  const headings = COLUMNS.map(([en, sw]) => (language === 'sw' ? sw : en).replace('{zone}', zone));
  async function* lines() {
    yield CSV_BOM + csvLine(headings);
    let after: { createdAt: string; id: string } | undefined;
    for (;;) {
      const rows = await repo.listPayoutsPage(deps.db, selection, after, EXPORT_BATCH);
      yield rows.map((row) => csvRow(row, deps.timeZone)).join('');
      const last = rows.at(-1);
      if (rows.length < EXPORT_BATCH || !last) return;
      after = { createdAt: last.created_at, id: last.id };
    }
  }
  return Readable.from(lines());
}
