/** Identifiers shaped like Daraja's (docs/daraja-protocol.md §3.4). */
import { randomBytes, randomInt } from 'node:crypto';

/** `length` random lowercase hex digits. */
export const hex = (length: number) =>
  randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);
const digits = (length: number) => Array.from({ length }, () => String(randomInt(10))).join('');

/** Parts of a date in Nairobi time (UTC+3, no daylight saving). */
export function eatParts(at: Date) {
  const eat = new Date(at.getTime() + 3 * 3600_000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return {
    year: String(eat.getUTCFullYear()),
    month: pad(eat.getUTCMonth() + 1),
    day: pad(eat.getUTCDate()),
    hour: pad(eat.getUTCHours()),
    minute: pad(eat.getUTCMinutes()),
    second: pad(eat.getUTCSeconds()),
    millis: pad(eat.getUTCMilliseconds(), 3),
  };
}

/** The hex style Daraja has used since about 2024: `2654-4b64-97ff-b827b542881d3130`. */
export function merchantRequestId(): string {
  return `${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}${digits(4 + randomInt(4))}`;
}

export const requestId = merchantRequestId;

/** `ws_CO_` + DDMMYYYYHHmmss (EAT) + 3-digit millis + the 9-digit subscriber number. */
export function checkoutRequestId(at: Date, msisdn: string): string {
  const p = eatParts(at);
  return `ws_CO_${p.day}${p.month}${p.year}${p.hour}${p.minute}${p.second}${p.millis}${msisdn.slice(-9)}`;
}

const RECEIPT_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** The letter a receipt starts with, which advances with the year (N = 2019, U = 2026). */
export function receiptYearLetter(at: Date): string {
  return String.fromCharCode('A'.charCodeAt(0) + ((at.getUTCFullYear() - 2006) % 26));
}

/** 10 uppercase alphanumerics, the first the year's letter. */
export function mpesaReceiptNumber(at: Date): string {
  const yearLetter = receiptYearLetter(at);
  let rest = '';
  for (let i = 0; i < 9; i++) rest += RECEIPT_ALPHABET[randomInt(RECEIPT_ALPHABET.length)];
  return `${yearLetter}${rest}`;
}

/** 28 alphanumerics, like `c9SQxWWhmdVRlyh0zh8gZDTkubVF`. */
export function accessToken(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let token = '';
  for (let i = 0; i < 28; i++) token += alphabet[randomInt(alphabet.length)];
  return token;
}

/** YYYYMMDDHHmmss in EAT, as a number: the callback's TransactionDate. */
export function eatNumber(at: Date): number {
  const p = eatParts(at);
  return Number(`${p.year}${p.month}${p.day}${p.hour}${p.minute}${p.second}`);
}
