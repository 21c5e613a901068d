/**
 * The history as CSV (RFC 4180), written for a spreadsheet (docs/product.md §2, the history's
 * export): UTF-8 with a byte-order mark, so that Excel does not read "café" as Windows-1252;
 * headers in words; times as a spreadsheet reads date-times (2026-11-25 12:20:47), in the
 * business time zone, which the header names; phone numbers as text that reads the same in a
 * script (254-712-345-678, `phoneCell`); amounts as plain numbers.
 *
 * References and descriptions are typed by strangers, so a cell that a spreadsheet would run as a
 * formula (starting with =, +, -, @, a tab or a carriage return) is neutralised with a leading
 * apostrophe. So is one that starts with a look-alike that Unicode's compatibility normalisation
 * (NFKC) turns into one of those: full-width ＝ ＋ － ＠ (U+FF1D, FF0B, FF0D, FF20), small ﹦ ﹢
 * ﹣ ﹫ (U+FE66, FE62, FE63, FE6B), super- and subscript ⁼ ⁺ ₌ ₊. A spreadsheet that folds them
 * into the characters they stand for would run the cell; the cell is kept as written, only
 * neutralised.
 */
import type { PaymentChannel } from '@mpesa/shared';
import type { ExportLanguage } from '@mpesa/shared/contract';
import type { TransactionRow } from '../../db/schema.ts';
import { isoInZone } from '../../lib/business-day.ts';

/** The byte-order mark that opens the file. */
export const CSV_BOM = '\uFEFF';

/** The columns read for the export, in the file's order. */
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
  'channel',
  'payer_name',
  'link_id',
] as const;

type Headings = Record<(typeof CSV_COLUMNS)[number], string>;

/** The header row's words, one a column; `{zone}` is the business time zone's name. */
export const CSV_HEADINGS: Headings = {
  id: 'Payment ID',
  created_at: 'Created at ({zone})',
  reference: 'Reference',
  description: 'Description',
  phone_number: 'Phone number',
  amount: 'Amount (KES)',
  status: 'Status',
  mpesa_receipt_number: 'M-PESA receipt',
  transaction_date: 'M-PESA transaction time ({zone})',
  result_code: 'Result code',
  response_description: 'Result description',
  channel: 'Paid through',
  payer_name: "Payer's name",
  link_id: 'Payment link',
};

/** The same in Kiswahili, as the screens say them, for a merchant who reads the app in it. */
export const CSV_HEADINGS_SW: Headings = {
  id: 'Kitambulisho cha malipo',
  created_at: 'Tarehe ya kuundwa ({zone})',
  reference: 'Kumbukumbu',
  description: 'Maelezo',
  phone_number: 'Nambari ya simu',
  amount: 'Kiasi (KES)',
  status: 'Hali',
  mpesa_receipt_number: 'Risiti ya M-PESA',
  transaction_date: 'Wakati wa muamala wa M-PESA ({zone})',
  result_code: 'Msimbo wa matokeo',
  response_description: 'Maelezo ya matokeo',
  channel: 'Njia ya malipo',
  payer_name: 'Jina la mlipaji',
  link_id: 'Kiungo cha malipo',
};

/**
 * How a payment came, in the header row's language: a prompt the shop sent, or the payer's own
 * menu (till, paybill). Kenyans say "till" and "paybill" in Kiswahili too.
 */
export const CSV_CHANNEL_WORDS: Record<ExportLanguage, Record<PaymentChannel, string>> = {
  en: { prompt: 'Prompt', till: 'Till', paybill: 'Paybill' },
  sw: { prompt: 'Ombi', till: 'Till', paybill: 'Paybill' },
};

/** The locale a zone's name is said in, by the header row's language. */
const ZONE_LOCALES: Record<ExportLanguage, string> = { en: 'en-US', sw: 'sw' };
/** How a zone whose offset changes in the year is named: its IANA name and both offsets. */
const ZONE_WITH_TWO_OFFSETS = '{name}, {first} or {second}';

/** The columns a CSV line is made of. */
export type CsvRow = Pick<TransactionRow, (typeof CSV_COLUMNS)[number]>;

/**
 * The zone's name at an instant: 'long' (East Africa Time, in Kiswahili Saa za Afrika Mashariki),
 * or 'longOffset' (always in English's form, GMT+03:00).
 */
function zonePart(
  timeZone: string,
  at: Date,
  style: 'long' | 'longOffset',
  locale = 'en-US',
): string {
  const parts = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: style });
  return parts.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

/** GMT+03:00 → UTC+03:00; GMT (no offset) → UTC+00:00. */
function utcOffset(timeZone: string, at: Date): string {
  const offset = zonePart(timeZone, at, 'longOffset').replace(/^GMT/, 'UTC');
  return offset === 'UTC' ? 'UTC+00:00' : offset;
}

/**
 * The business time zone as the header names it: "East Africa Time, UTC+03:00". A zone whose
 * clocks change in the year (none in Kenya) is named by its IANA name with both offsets, since
 * the times below are written without one.
 */
export function zoneLabel(timeZone: string, now: Date, language: ExportLanguage = 'en'): string {
  const year = now.getUTCFullYear();
  const [first, second] = [0, 6].map((month) =>
    utcOffset(timeZone, new Date(Date.UTC(year, month, 1))),
  ) as [string, string];
  if (first !== second) {
    return ZONE_WITH_TWO_OFFSETS.replace('{name}', timeZone)
      .replace('{first}', first)
      .replace('{second}', second);
  }
  const name = zonePart(timeZone, now, 'long', ZONE_LOCALES[language]);
  // A zone with no English name is given one like GMT+03:00 by Intl: its IANA name says more.
  return `${name.startsWith('GMT') ? timeZone : name}, ${first}`;
}

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

/** The first line: the byte-order mark and the headers in words, in English or Kiswahili. */
export function csvHeader(timeZone: string, now: Date, language: ExportLanguage = 'en'): string {
  const zone = zoneLabel(timeZone, now, language);
  const headings = language === 'sw' ? CSV_HEADINGS_SW : CSV_HEADINGS;
  return CSV_BOM + csvLine(CSV_COLUMNS.map((column) => headings[column].replace('{zone}', zone)));
}

/**
 * A phone number written so that a spreadsheet keeps it as text and a script reads what a person
 * sees: its digits in groups of three from the right, joined by hyphens (254712345678 is written
 * 254-712-345-678). Bare, 254712345678 becomes the number 2.54712E+11 in Excel, LibreOffice and
 * Google Sheets alike. The hyphens make it no number in any locale: none groups digits with a
 * hyphen (spaces would not do: where a space groups thousands, as in French or South African
 * settings, "254 712 345 678" is read as the number), and four parts are no date. It starts with
 * a digit, so it is no formula either, and `cell` leaves it alone. (A formula, ="254712345678",
 * kept it as text in a spreadsheet but reached a script or a database import as that formula;
 * a leading + or apostrophe would be neutralised, or shown.) Pasted into the history's search it
 * finds the number, which is read with its hyphens.
 *
 * Anything else is written as stored, through `cell`: a number masked by PHONE_RETENTION_DAYS
 * (254*****5678) or by M-PESA (2547 ***** 126) and a C2B payer's hashed number (#3f2a…) are text
 * to every spreadsheet already, by their asterisks or #.
 */
function phoneCell(phone: string): string {
  return cell(spreadsheetPhone(phone));
}

/** A number as `phoneCell` writes it, before `csvLine` makes it a cell (payouts' payees). */
export function spreadsheetPhone(phone: string): string {
  return /^[0-9]+$/.test(phone) ? phone.replace(/\B(?=(?:[0-9]{3})+$)/g, '-') : phone;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

/** An instant as a spreadsheet reads a date-time, in the zone's wall time: 2026-11-25 12:20:47. */
export function spreadsheetTime(instant: string, timeZone: string): string {
  const iso = isoInZone(instant, timeZone);
  // A time stored in another form (none is: the database writes ISO 8601) is written as it is.
  return ISO_TIME.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : cell(iso);
}

/**
 * One payment as a CSV line, in the order of CSV_COLUMNS (written out: it runs once a row). The
 * payer's name is M-PESA's text about a stranger, so it is neutralised as references are.
 */
export function csvRecord(row: CsvRow, timeZone: string, language: ExportLanguage = 'en'): string {
  // Ids, statuses and channels are ours, never a stranger's text: they need no care.
  return `${row.id},${spreadsheetTime(row.created_at, timeZone)},${cell(row.reference)},${cell(
    row.description,
  )},${phoneCell(row.phone_number)},${Number(row.amount)},${row.status},${cell(
    row.mpesa_receipt_number,
  )},${row.transaction_date === null ? '' : spreadsheetTime(row.transaction_date, timeZone)},${cell(
    row.result_code,
  )},${cell(row.response_description)},${CSV_CHANNEL_WORDS[language][row.channel]},${cell(
    row.payer_name,
  )},${row.link_id ?? ''}\r\n`;
}
