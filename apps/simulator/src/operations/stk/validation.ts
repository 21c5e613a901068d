/**
 * Field rules Daraja applies to STK push and query bodies. Each failure names the field the way
 * Daraja does: "Bad Request - Invalid <Field>" (docs/daraja-protocol.md §3.5).
 */
import { commandWord } from '../../daraja/command-words.ts';
import type { Fields } from '../../daraja/gate.ts';

const MSISDN = /^254[17][0-9]{8}$/;
const SHORTCODE = /^[0-9]{5,7}$/;
const MAX_AMOUNT = 250_000;
/** Paybill and till (docs/daraja-protocol.md §3.1). */
const TRANSACTION_TYPES = ['CustomerPayBillOnline', 'CustomerBuyGoodsOnline'] as const;

/** Daraja accepts numbers or numeric strings in its "Numeric" fields. */
export function numericText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return null;
}

export function isValidTimestamp(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(value);
  if (!match) return false;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s
  );
}

/** How far a YYYYMMDDHHmmss Nairobi timestamp is from `now`, in hours. */
export function timestampSkewHours(timestamp: string, now = Date.now()): number {
  const [y, mo, d, h, mi, s] = [0, 4, 6, 8, 10, 12].map((at, i) =>
    Number(timestamp.slice(at, at + (i === 0 ? 4 : 2))),
  ) as [number, number, number, number, number, number];
  const eat = Date.UTC(y, mo - 1, d, h, mi, s) - 3 * 3600_000;
  return Math.abs(now - eat) / 3600_000;
}

export function isUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value !== value.trim() || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export function amountOf(value: unknown): number | null {
  const text = numericText(value);
  if (text === null || !/^\d+(\.0+)?$/.test(text)) return null;
  const amount = Number(text);
  return amount >= 1 && amount <= MAX_AMOUNT ? amount : null;
}

export interface ValidatedPush {
  businessShortCode: string;
  password: string;
  timestamp: string;
  transactionType: string;
  amount: number;
  partyA: string;
  partyB: string;
  phoneNumber: string;
  callbackUrl: string;
  accountReference: string;
  transactionDesc: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; field: string };

function common(
  body: Fields,
): Checked<{ businessShortCode: string; password: string; timestamp: string }> {
  const businessShortCode = numericText(body.BusinessShortCode);
  if (businessShortCode === null || !SHORTCODE.test(businessShortCode)) {
    return { ok: false, field: 'BusinessShortCode' };
  }
  if (typeof body.Password !== 'string' || body.Password.trim() === '')
    return { ok: false, field: 'Password' };
  if (!isValidTimestamp(body.Timestamp)) return { ok: false, field: 'Timestamp' };
  return {
    ok: true,
    value: { businessShortCode, password: body.Password, timestamp: body.Timestamp },
  };
}

export function checkPush(body: Fields, strictLengths: boolean): Checked<ValidatedPush> {
  const head = common(body);
  if (!head.ok) return head;
  const transactionType = commandWord(body.TransactionType, TRANSACTION_TYPES, strictLengths);
  if (transactionType === null) return { ok: false, field: 'TransactionType' };
  const amount = amountOf(body.Amount);
  if (amount === null) return { ok: false, field: 'Amount' };
  // PhoneNumber before PartyA: a push whose two numbers are both a non-Kenyan one is refused as
  // "Invalid PhoneNumber" (docs/daraja-protocol.md §3.5, where the report is linked).
  const phoneNumber = numericText(body.PhoneNumber);
  if (phoneNumber === null || !MSISDN.test(phoneNumber)) return { ok: false, field: 'PhoneNumber' };
  const partyA = numericText(body.PartyA);
  if (partyA === null || !MSISDN.test(partyA)) return { ok: false, field: 'PartyA' };
  const partyB = numericText(body.PartyB);
  if (partyB === null || !SHORTCODE.test(partyB)) return { ok: false, field: 'PartyB' };
  if (!isUrl(body.CallBackURL)) return { ok: false, field: 'CallBackURL' };
  const accountReference = body.AccountReference;
  if (
    typeof accountReference !== 'string' ||
    accountReference.trim() === '' ||
    (strictLengths && accountReference.length > 12)
  ) {
    return { ok: false, field: 'AccountReference' };
  }
  // TransactionDesc is the one optional field, but a null or non-text value is refused under its
  // internal name, "Remarks" (docs/daraja-protocol.md §3.1).
  const description = body.TransactionDesc;
  if (description !== undefined && typeof description !== 'string')
    return { ok: false, field: 'Remarks' };
  if (strictLengths && typeof description === 'string' && description.length > 13) {
    return { ok: false, field: 'TransactionDesc' };
  }
  return {
    ok: true,
    value: {
      ...head.value,
      transactionType,
      amount,
      partyA,
      partyB,
      phoneNumber,
      callbackUrl: body.CallBackURL as string,
      accountReference,
      transactionDesc: description ?? '',
    },
  };
}

export function checkQuery(body: Fields): Checked<{
  businessShortCode: string;
  password: string;
  timestamp: string;
  checkoutRequestId: string;
}> {
  const head = common(body);
  if (!head.ok) return head;
  if (typeof body.CheckoutRequestID !== 'string' || body.CheckoutRequestID.trim() === '') {
    return { ok: false, field: 'CheckoutRequestID' };
  }
  return { ok: true, value: { ...head.value, checkoutRequestId: body.CheckoutRequestID } };
}
