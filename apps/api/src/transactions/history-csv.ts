/**
 * The history as CSV (RFC 4180): a header row, amounts as plain numbers, times in ISO 8601 with the
 * business time zone's offset. References and descriptions are typed by strangers, so a cell that
 * a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) is
 * neutralised with a leading apostrophe.
 */
import type { TransactionRow } from '../db/schema.ts';
import { isoInZone } from '../lib/business-day.ts';

export const CSV_COLUMNS = [
  'id',
  'created_at',
  'reference',
  'description',
  'phone_number',
  'amount',
  'status',
  'mpesa_receipt_number',
  'transaction_date',
  'result_code',
  'response_description',
] as const;

/** The columns a CSV line is made of. */
export type CsvRow = Pick<TransactionRow, (typeof CSV_COLUMNS)[number]>;

/** A cell that needs neither neutralising nor quoting, the common case, is written as it is. */
const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (!NEEDS_CARE.test(value)) return value;
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(values: readonly (string | number | null)[]): string {
  return `${values.map(cell).join(',')}\r\n`;
}

/** One payment as a CSV line, in the order of CSV_COLUMNS (written out: it runs once a row). */
export function csvRecord(row: CsvRow, timeZone: string): string {
  // Ids, phone numbers and statuses are ours, never a stranger's text: they need no care.
  return `${row.id},${isoInZone(row.created_at, timeZone)},${cell(row.reference)},${cell(
    row.description,
  )},${row.phone_number},${Number(row.amount)},${row.status},${cell(
    row.mpesa_receipt_number,
  )},${row.transaction_date === null ? '' : cell(isoInZone(row.transaction_date, timeZone))},${cell(
    row.result_code,
  )},${cell(row.response_description)}\r\n`;
}
