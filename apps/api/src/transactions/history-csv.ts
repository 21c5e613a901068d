/**
 * The history as CSV (RFC 4180): a header row, amounts as plain numbers, times in ISO 8601 with the
 * business time zone's offset. References and descriptions are typed by strangers, so a cell that
 * a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) is
 * neutralised with a leading apostrophe. So is one that starts with a look-alike that Unicode's
 * compatibility normalisation (NFKC) turns into one of those: full-width ＝ ＋ － ＠ (U+FF1D,
 * FF0B, FF0D, FF20), small ﹦ ﹢ ﹣ ﹫ (U+FE66, FE62, FE63, FE6B), super- and subscript ⁼ ⁺ ₌ ₊.
 * A spreadsheet that folds them into the characters they stand for would run the cell; the cell
 * is kept as written, only neutralised.
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

/**
 * A cell that needs neither neutralising nor quoting, the common case, is written as it is: one
 * that starts with printable ASCII other than a formula's start, and holds nothing to quote.
 */
const NEEDS_CARE = /^[^\x20-\x7e]|^[=+\-@]|[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Whether a spreadsheet could run the cell as a formula: it starts with a formula's character, as
 * written or in its NFKC form. A cell that starts with ASCII needs no normalising: NFKC leaves an
 * ASCII character as it is, and only joins one to the marks after it as a letter, never as one
 * of these.
 */
function isFormulaLike(value: string): boolean {
  if (FORMULA_START.test(value)) return true;
  return value.charCodeAt(0) > 0x7f && FORMULA_START.test(value.normalize('NFKC'));
}

function cell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (!NEEDS_CARE.test(value)) return value;
  const safe = isFormulaLike(value) ? `'${value}` : value;
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
