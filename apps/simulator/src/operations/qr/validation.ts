/**
 * The fields of a Dynamic QR request as the simulator checks them (docs/daraja-protocol.md
 * §M8.2). Each failure names the field as Daraja does: "Bad Request - Invalid <Field>".
 */
import type { Fields } from '../../daraja/gate.ts';
import { amountOf, type Checked } from '../stk/validation.ts';

/**
 * Each TrxCode and the form of the CPI (credit party identifier) it pays: a till for buy goods
 * (BG) and for withdrawing at an agent (WA), a paybill (PB), a phone number for send money (SM),
 * and a business reached by a number in phone form (SB).
 */
const CPI_FORMS = {
  BG: /^[0-9]{5,7}$/,
  WA: /^[0-9]{5,7}$/,
  PB: /^[0-9]{5,7}$/,
  SM: /^254[17][0-9]{8}$/,
  SB: /^254[17][0-9]{8}$/,
} as const;
export type TrxCode = keyof typeof CPI_FORMS;
export const TRX_CODES = Object.keys(CPI_FORMS) as TrxCode[];

/**
 * Daraja's limits on the texts are not published; these keep the code small enough to scan at
 * the sizes asked for, and are the simulator's own (docs/daraja-protocol.md §M8.2).
 */
export const MAX_TEXT = 100;
/** The PNG's side in pixels: at most this, and at least what the code needs (qr-image.ts). */
export const MAX_SIZE = 1000;

export interface QrRequest {
  merchantName: string;
  refNo: string;
  amount: number;
  trxCode: TrxCode;
  cpi: string;
  size: number;
}

/** A text, not blank, of at most MAX_TEXT characters once trimmed (an emoji is one, not two). */
function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' || [...trimmed].length > MAX_TEXT ? null : trimmed;
}

/** Digits as Daraja's "numeric" fields take them: a number, or a string of digits. */
function digits(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return typeof value === 'string' && /^\s*[0-9]+\s*$/.test(value) ? value.trim() : null;
}

export function checkQr(body: Fields): Checked<QrRequest> {
  const merchantName = text(body.MerchantName);
  if (merchantName === null) return { ok: false, field: 'MerchantName' };
  const refNo = text(body.RefNo);
  if (refNo === null) return { ok: false, field: 'RefNo' };
  const amount = amountOf(body.Amount);
  if (amount === null) return { ok: false, field: 'Amount' };
  const trxCode = TRX_CODES.find((code) => code === body.TrxCode);
  if (trxCode === undefined) return { ok: false, field: 'TrxCode' };
  const cpi = digits(body.CPI);
  if (cpi === null || !CPI_FORMS[trxCode].test(cpi)) return { ok: false, field: 'CPI' };
  const size = Number(digits(body.Size) ?? Number.NaN);
  if (!(size >= 1 && size <= MAX_SIZE)) return { ok: false, field: 'Size' };
  return { ok: true, value: { merchantName, refNo, amount, trxCode, cpi, size } };
}
