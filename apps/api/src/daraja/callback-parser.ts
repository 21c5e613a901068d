/**
 * Parses Daraja's STK result callback in every shape seen in the wild (docs/daraja-protocol.md §4):
 * ResultCode as a number or a string ("SFC_IC0003"), no CallbackMetadata on failures, metadata items
 * in any order and looked up by Name, a Balance item with no Value, TransactionDate as an EAT number.
 */
import { z } from 'zod';
import { stripControlCharacters } from '@mpesa/shared';
import { MAX_LENGTH } from '../lib/stored-lengths.ts';
import { eatTimestampToIso } from './time.ts';

const itemSchema = z.looseObject({
  Name: z.string(),
  Value: z.union([z.number(), z.string(), z.null()]).optional(),
});

/**
 * Daraja's identifiers and codes are printable ASCII no longer than we store
 * (lib/stored-lengths.ts); anything else is not a Daraja callback.
 */
const identifier = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[\x20-\x7e]*$/);

/** Free text loses control characters, which no database should be asked to store. */
const plainText = z.string().max(2000).transform(stripControlCharacters);

const callbackSchema = z.looseObject({
  Body: z.looseObject({
    stkCallback: z.looseObject({
      MerchantRequestID: identifier(MAX_LENGTH.darajaId),
      CheckoutRequestID: identifier(MAX_LENGTH.darajaId).min(1),
      ResultCode: z.union([z.number(), identifier(MAX_LENGTH.resultCode).min(1)]),
      ResultDesc: plainText.default(''),
      CallbackMetadata: z.looseObject({ Item: z.array(itemSchema).max(50).default([]) }).nullish(),
    }),
  }),
});

export interface StkCallbackMetadata {
  amount: number | null;
  mpesaReceiptNumber: string | null;
  balance: number | null;
  /** ISO 8601 UTC, converted from Daraja's EAT `YYYYMMDDHHmmss`. */
  transactionDate: string | null;
  /** 12 digits, 2547XXXXXXXX. */
  phoneNumber: string | null;
  /**
   * Set when M-PESA sent a receipt longer than we store: the outcome still counts (the money
   * moved), the receipt stays in the raw body, and the payment is flagged for a person.
   */
  receiptTooLong?: true;
}

export interface StkCallback {
  merchantRequestId: string;
  checkoutRequestId: string;
  /** Always text: "0", "1032", "SFC_IC0003". */
  resultCode: string;
  resultDesc: string;
  metadata: StkCallbackMetadata | null;
}

export type ParseResult = { ok: true; callback: StkCallback } | { ok: false; reason: string };

function numberOrNull(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  return null;
}

function textOrNull(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return /^[\x20-\x7e]+$/.test(value) ? value : null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** Phone numbers arrive as numbers (254708374149); a hand-edited 07… form is normalised too. */
function msisdnOrNull(value: unknown): string | null {
  const text = textOrNull(value);
  if (text === null) return null;
  if (/^254\d{9}$/.test(text)) return text;
  if (/^0\d{9}$/.test(text)) return `254${text.slice(1)}`;
  return text;
}

export function parseStkCallback(body: unknown): ParseResult {
  const parsed = callbackSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
    };
  }
  const raw = parsed.data.Body.stkCallback;
  const items = new Map<string, unknown>();
  for (const item of raw.CallbackMetadata?.Item ?? []) {
    if (!items.has(item.Name)) items.set(item.Name, item.Value);
  }
  const date = items.get('TransactionDate');
  const sentReceipt = textOrNull(items.get('MpesaReceiptNumber'));
  const receiptTooLong = sentReceipt !== null && sentReceipt.length > MAX_LENGTH.receiptNumber;
  const metadata: StkCallbackMetadata | null = raw.CallbackMetadata
    ? {
        amount: numberOrNull(items.get('Amount')),
        mpesaReceiptNumber: receiptTooLong ? null : sentReceipt,
        balance: numberOrNull(items.get('Balance')),
        transactionDate:
          typeof date === 'number' || typeof date === 'string' ? eatTimestampToIso(date) : null,
        phoneNumber: msisdnOrNull(items.get('PhoneNumber')),
        ...(receiptTooLong ? { receiptTooLong: true as const } : {}),
      }
    : null;
  return {
    ok: true,
    callback: {
      merchantRequestId: raw.MerchantRequestID,
      checkoutRequestId: raw.CheckoutRequestID,
      resultCode: String(raw.ResultCode).trim(),
      resultDesc: raw.ResultDesc,
      metadata,
    },
  };
}
