/**
 * The HTTP contract between the web app and the API, as zod schemas. The API validates with them
 * and derives its types from them; the web app imports the types only.
 */
import { z } from 'zod';
import {
  DEFAULT_DESCRIPTION,
  DEFAULT_REFERENCE,
  DESCRIPTION_MAX_LENGTH,
  MAX_AMOUNT,
  MIN_AMOUNT,
  REFERENCE_MAX_LENGTH,
  TRANSACTION_STATUSES,
  messages,
} from './constants.ts';
import { normaliseKenyanPhone } from './phone.ts';
import { stripControlCharacters } from './text.ts';

/**
 * Text that is a number as a number input writes it ("100", "-5", "0.5", "1e3"; HTML's "valid
 * floating-point number"). It is read as that number and then judged by the number's rules, so
 * "-5" is "at least 1 KES" as -5 is, not "not a number".
 */
const NUMERIC_TEXT = /^\s*-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\s*$/;

export const amountSchema = z
  .union([z.number(), z.string()], {
    error: (issue) =>
      issue.input === undefined ? messages.amountRequired : messages.amountNotNumber,
  })
  .transform((value, ctx) => {
    const amount =
      typeof value === 'number' ? value : NUMERIC_TEXT.test(value) ? Number(value) : Number.NaN;
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (!Number.isFinite(amount)) return fail(messages.amountNotNumber);
    if (amount < MIN_AMOUNT) return fail(messages.amountTooSmall);
    if (!Number.isInteger(amount)) return fail(messages.amountNotWhole);
    if (amount > MAX_AMOUNT) return fail(messages.amountTooLarge);
    return amount;
  });

export const phoneNumberSchema = z
  .string({ error: messages.invalidPhone })
  .transform((value, ctx) => {
    const phone = normaliseKenyanPhone(value);
    if (phone === null) {
      ctx.addIssue({ code: 'custom', message: messages.invalidPhone });
      return z.NEVER;
    }
    return phone;
  });

/** Strips control characters, normalises Unicode and trims; empty text takes the default. */
function freeText(label: string, maxLength: number, fallback: string) {
  return z
    .string({ error: `${label} must be text` })
    .nullish()
    .transform((value, ctx) => {
      const text = stripControlCharacters((value ?? '').normalize('NFC')).trim();
      if ([...text].length > maxLength) {
        ctx.addIssue({
          code: 'custom',
          message: `${label} must be at most ${maxLength} characters`,
        });
        return z.NEVER;
      }
      return text === '' ? fallback : text;
    });
}

export const initiatePaymentSchema = z.object(
  {
    phoneNumber: phoneNumberSchema,
    amount: amountSchema,
    reference: freeText('Reference', REFERENCE_MAX_LENGTH, DEFAULT_REFERENCE),
    description: freeText('Description', DESCRIPTION_MAX_LENGTH, DEFAULT_DESCRIPTION),
  },
  { error: 'The request body must be a JSON object' },
);
export type InitiatePaymentInput = z.input<typeof initiatePaymentSchema>;
export type InitiatePayment = z.output<typeof initiatePaymentSchema>;

export const transactionStatusSchema = z.enum(TRANSACTION_STATUSES);

export const transactionSchema = z.object({
  _id: z.string(),
  reference: z.string(),
  phoneNumber: z.string(),
  amount: z.number(),
  description: z.string(),
  status: transactionStatusSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  merchantRequestId: z.string().nullable(),
  checkoutRequestId: z.string().nullable(),
  resultCode: z.string().nullable(),
  mpesaReceiptNumber: z.string().nullable(),
  transactionDate: z.string().nullable(),
  responseDescription: z.string().nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const initiatePaymentResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  transactionId: z.string(),
  checkoutRequestId: z.string(),
  customerMessage: z.string(),
});
export type InitiatePaymentResponse = z.infer<typeof initiatePaymentResponseSchema>;

export const transactionListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(transactionSchema),
});
export type TransactionListResponse = z.infer<typeof transactionListResponseSchema>;

export const transactionResponseSchema = z.object({
  success: z.literal(true),
  data: transactionSchema,
});
export type TransactionResponse = z.infer<typeof transactionResponseSchema>;

/** Every failure the API answers carries a stable code and a sentence a payer can read. */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  code: z.string(),
  message: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
