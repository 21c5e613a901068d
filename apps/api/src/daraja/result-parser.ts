/**
 * Reads the Result that Daraja posts to a ResultURL after a reversal, a transaction-status query
 * or any other asynchronous request (docs/daraja-protocol.md §M1.3). Real Results disagree with the
 * docs and with each other, so it takes each shape seen: ResultCode a number (`0`, `2001`) or a
 * string (`"0"`, `"R000002"`), read here as text; ResultParameter an array, or one object on some
 * failures, or absent; items with no Value (`{"Key":"TransactionReason"}`); a Key repeated
 * (transaction status sends `DebitPartyName` twice); ReferenceItem an object or an array.
 */
import { z } from 'zod';
import { MAX_LENGTH } from '../lib/stored-lengths.ts';
import { darajaText, storable } from './transport.ts';

/** One `{Key, Value}` of a Result, its Value as text (null when Daraja sent none). */
export interface ResultItem {
  key: string;
  value: string | null;
}

export interface DarajaResult {
  resultCode: string;
  resultDesc: string;
  originatorConversationId: string;
  conversationId: string;
  /** The receipt; on failures often a placeholder like `SKE0000000`. */
  transactionId: string | null;
  /** Every ResultParameter, in Daraja's order (look them up by key: the order is not fixed). */
  parameters: ResultItem[];
  references: ResultItem[];
}

/**
 * A Value as text. A decimal's trailing zeros (`1.00`, `-1980.00`) are gone once the body is JSON
 * parsed: amounts are read as numbers, never compared as text.
 */
const value = z
  .union([z.string(), z.number(), z.boolean()])
  .transform((raw) => String(raw))
  .pipe(darajaText);

const itemSchema = z
  .looseObject({ Key: darajaText.pipe(z.string().min(1).max(200)), Value: value.nullish() })
  .transform((item): ResultItem => ({ key: item.Key, value: item.Value ?? null }));

/** An array of items, one item on its own, or nothing. */
const items = (wrapper: string) =>
  z
    .looseObject({ [wrapper]: z.union([z.array(itemSchema), itemSchema]).optional() })
    .optional()
    .transform((held) => {
      const found = held?.[wrapper] as ResultItem[] | ResultItem | undefined;
      return found === undefined ? [] : Array.isArray(found) ? found : [found];
    });

const resultSchema = z.looseObject({
  Result: z.looseObject({
    ResultCode: storable(MAX_LENGTH.resultCode).pipe(z.string().min(1)),
    ResultDesc: darajaText.default(''),
    OriginatorConversationID: storable(MAX_LENGTH.darajaId).pipe(z.string().min(1)),
    ConversationID: storable(MAX_LENGTH.darajaId).pipe(z.string().min(1)),
    TransactionID: storable(MAX_LENGTH.receiptNumber).optional(),
    ResultParameters: items('ResultParameter'),
    ReferenceData: items('ReferenceItem'),
  }),
});

/** The Result in a body Daraja posted, or a sentence saying why it is not one. */
export function parseResult(
  body: unknown,
): { ok: true; result: DarajaResult } | { ok: false; problem: string } {
  const parsed = resultSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem:
        `not a Daraja Result: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim(),
    };
  }
  const result = parsed.data.Result;
  return {
    ok: true,
    result: {
      resultCode: result.ResultCode,
      resultDesc: result.ResultDesc,
      originatorConversationId: result.OriginatorConversationID,
      conversationId: result.ConversationID,
      transactionId: result.TransactionID || null,
      parameters: result.ResultParameters,
      references: result.ReferenceData,
    },
  };
}

/** The first value of `key` among a Result's parameters (null if absent or given no value). */
export function parameter(result: DarajaResult, key: string): string | null {
  return result.parameters.find((item) => item.key === key)?.value ?? null;
}
