/**
 * Reads the flat body M-PESA posts to the C2B validation and confirmation URLs
 * (docs/daraja-protocol.md §M3.3) into the payment the history records. Identifiers that must be
 * exact (the receipt, the shortcode, the amount) are checked strictly: a body without them is not a
 * payment we can record. Free text (the account number, the payer's names, the number as M-PESA
 * gives it) is cleaned of control characters and cut to its column: a payment that really came in
 * is never left out of the history for a long name, and its raw body is kept whole anyway.
 */
import { z } from 'zod';
import {
  REFERENCE_MAX_LENGTH,
  stripControlCharacters,
  stripInvisibleMarks,
  type PaymentChannel,
} from '@mpesa/shared';
import { eatTimestampToIso } from '../../daraja/time.ts';
import { storable } from '../../daraja/transport.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';

/** A till or paybill payment as the history records it, from a confirmation or a status Result. */
export interface C2bPayment {
  channel: Exclude<PaymentChannel, 'prompt'>;
  receipt: string;
  /** Whole shillings. */
  amount: number;
  shortcode: string;
  /** The account number the customer typed (a paybill's); '' for a till. */
  reference: string;
  /** When the customer paid (ISO UTC), null when M-PESA's time could not be read. */
  transactionDate: string | null;
  payerName: string | null;
  /** The number exactly as M-PESA gave it (masked in v2, hashed in v1), null if none. */
  payerMsisdn: string | null;
}

/** The column `transactions.phone_number` holds at most this many characters. */
const PHONE_COLUMN_LENGTH = 16;
/** The largest amount taken: M-PESA's own limit is far below, and the column is a 32-bit integer. */
const LARGEST_AMOUNT = 1_000_000_000;

/** `text` cut to `max` characters (code points, as PostgreSQL's varchar counts them). */
function cut(text: string, max: number): string {
  const points = Array.from(text);
  return points.length > max ? points.slice(0, max).join('') : text;
}

/**
 * Free text from M-PESA as stored and shown: control characters and invisible marks (bidirectional
 * overrides, zero-width characters) gone, trimmed.
 */
export function cleanText(value: string): string {
  return stripInvisibleMarks(stripControlCharacters(value.normalize('NFC'))).trim();
}

/** Free text as stored: cleaned, at most `max` characters. */
const freeText = (max: number) =>
  z
    .union([z.string(), z.number()])
    .nullish()
    .transform((value) => cut(cleanText(String(value ?? '')), max));

/** An amount as digits, with a decimal part or not: no sign, exponent, hexadecimal or spaces. */
const PLAIN_DECIMAL = /^(\d{1,12})(?:\.(\d{1,12}))?$/;

/**
 * Whole shillings, from the string M-PESA sends (`"1.00"`, `"10"`) or a number; null for anything
 * else. "Only whole numbers are supported" (§M3.3): a fraction is refused, never rounded into
 * another amount, and only plain decimals are read ("0x10", "1e3" are not amounts M-PESA writes).
 */
export function wholeShillingsOf(value: string | number | null): number | null {
  let amount: number;
  if (typeof value === 'number') {
    amount = value;
  } else {
    const digits = PLAIN_DECIMAL.exec((value ?? '').trim());
    if (!digits || /[^0]/.test(digits[2] ?? '')) return null;
    amount = Number(digits[1]);
  }
  return Number.isInteger(amount) && amount > 0 && amount <= LARGEST_AMOUNT ? amount : null;
}

const wholeShillings = z.union([z.string().max(40), z.number()]).transform((value, ctx) => {
  const amount = wholeShillingsOf(value);
  if (amount !== null) return amount;
  ctx.addIssue({
    code: 'custom',
    message: `must be a whole number of shillings from 1 to ${LARGEST_AMOUNT}, in digits`,
  });
  return z.NEVER;
});

/** §M3.3's TransactionType: `Pay Bill` or `Buy Goods`, read loosely (spacing, case). */
function channelOf(type: string, reference: string): C2bPayment['channel'] {
  if (/buy\s*goods/i.test(type)) return 'till';
  if (/pay\s*bill/i.test(type)) return 'paybill';
  // A type never documented: what the customer typed tells (a paybill asks for an account).
  return reference === '' ? 'till' : 'paybill';
}

/** FirstName MiddleName LastName, empty parts skipped; null when M-PESA gave none. */
export function payerNameOf(parts: readonly (string | null | undefined)[]): string | null {
  const name = parts
    .map((part) => cleanText(part ?? ''))
    .filter(Boolean)
    .join(' ');
  return name === '' ? null : cut(name, MAX_LENGTH.payerName);
}

/**
 * What the history shows of the payer's number (`transactions.phone_number`, 16 characters): C2B
 * v2's masked form (`2547 ***** 126`) as it is; v1's SHA-256 of the number (64 hex digits, §M3.3)
 * as `#` and its first 12 digits, enough to tell two payers apart in a list, and marked by the `#`
 * as no number anyone can dial. Anything else longer than the column is cut to it.
 */
export function shownPhone(msisdn: string | null): string {
  if (msisdn === null) return '';
  if (/^[0-9a-f]{64}$/i.test(msisdn)) return `#${msisdn.slice(0, 12).toLowerCase()}`;
  return cut(msisdn, PHONE_COLUMN_LENGTH);
}

const confirmationSchema = z.looseObject({
  TransactionType: freeText(40),
  // Receipts are kept in upper case, as M-PESA prints them and as receipt checks and the
  // history's search read them.
  TransID: storable(MAX_LENGTH.receiptNumber)
    .pipe(z.string().min(1))
    .transform((receipt) => receipt.toUpperCase()),
  TransTime: z.union([z.string().max(40), z.number()]).nullish(),
  TransAmount: wholeShillings,
  BusinessShortCode: storable(PHONE_COLUMN_LENGTH).pipe(z.string().min(1)),
  BillRefNumber: freeText(REFERENCE_MAX_LENGTH),
  MSISDN: freeText(MAX_LENGTH.payerMsisdn),
  FirstName: freeText(MAX_LENGTH.payerName),
  MiddleName: freeText(MAX_LENGTH.payerName),
  LastName: freeText(MAX_LENGTH.payerName),
});

/** TransTime (YYYYMMDDHHmmss, Nairobi) as ISO UTC; null when absent or not a date. */
const readTime = (value: string | number | null | undefined) =>
  value === null || value === undefined ? null : eatTimestampToIso(value);

export type C2bBodyReading = { ok: true; payment: C2bPayment } | { ok: false; problem: string };

/** The payment a validation request or a confirmation describes, or why it describes none. */
export function readC2bBody(raw: string): C2bBodyReading {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const parsed = confirmationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? ''}` };
  }
  const fields = parsed.data;
  const reference = fields.BillRefNumber;
  return {
    ok: true,
    payment: {
      channel: channelOf(fields.TransactionType, reference),
      receipt: fields.TransID,
      amount: fields.TransAmount,
      shortcode: fields.BusinessShortCode,
      reference,
      transactionDate: readTime(fields.TransTime),
      payerName: payerNameOf([fields.FirstName, fields.MiddleName, fields.LastName]),
      payerMsisdn: fields.MSISDN === '' ? null : fields.MSISDN,
    },
  };
}
