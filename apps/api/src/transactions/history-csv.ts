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

const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(values: readonly (string | number | null)[]): string {
  return `${values.map(cell).join(',')}\r\n`;
}

export function csvRow(row: TransactionRow, timeZone: string): (string | number | null)[] {
  return [
    row.id,
    isoInZone(row.created_at, timeZone),
    row.reference,
    row.description,
    row.phone_number,
    Number(row.amount),
    row.status,
    row.mpesa_receipt_number,
    row.transaction_date === null ? null : isoInZone(row.transaction_date, timeZone),
    row.result_code,
    row.response_description,
  ];
}
