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
  PAYMENT_CHANNELS,
  REFERENCE_MAX_LENGTH,
  SEARCH_MAX_LENGTH,
  TRANSACTION_STATUSES,
  messages,
} from './constants.ts';
import { ErrorCode } from './error-codes.ts';
import { REFUND_BLOCKS, refundSchema } from './contract-money.ts';
import { normaliseKenyanPhone } from './phone.ts';
import { stripControlCharacters } from './text.ts';

export * from './contract-money.ts';
export * from './contract-summary.ts';

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
export const paymentChannelSchema = z.enum(PAYMENT_CHANNELS);

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
  /** How it came: a prompt the shop sent, or the customer's own menu (till, paybill). */
  channel: paymentChannelSchema,
  /**
   * A till or paybill payer's name as M-PESA gives it (C2B FirstName, MiddleName, LastName); null for
   * a prompt and in the payer's view (personal data, shown as the number is: docs/product.md §11).
   */
  payerName: z.string().nullable(),
  /** The payment link it was paid through (docs/product.md §14); null for the others. */
  linkId: z.string().nullable(),
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

/** The history's pages: newest first, this many by default and at most. */
export const LIST_PAGE = { defaultSize: 50, maxSize: 200 } as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A parameter's refusal when it is given twice (`?q=a&q=b` arrives as a list). */
const once = (name: string) => ({ error: `${name} must be given once` });

const day = (name: string) =>
  z
    .string(once(name))
    .trim()
    .refine((value) => {
      const time = DAY.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
      // 2026-02-30 parses as 2 March: only a day that exists reads back as itself.
      return Number.isFinite(time) && new Date(time).toISOString().startsWith(value);
    }, `${name} must be a date written YYYY-MM-DD, such as 2026-11-01`)
    .optional();

/**
 * Which payments the history shows: the same parameters in the web app's address and the API's
 * query string. `status` is one or several statuses (repeated, or comma-separated); `from` and
 * `to` are business days, both included; `q` is a phone number in any accepted form, or else an
 * M-PESA receipt or the start of a reference (A to Z in any case), and, when it is four digits or
 * more, the end of a phone number (apps/api history.service.ts).
 */
/**
 * One or several of `values` (repeated, or comma-separated), each said once; undefined for none.
 */
function oneOrSeveral<const T extends string>(name: string, values: readonly T[]) {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const given = [value]
        .flat()
        .flatMap((part) => part.split(','))
        .map((part) => part.trim())
        .filter(Boolean);
      for (const one of given) {
        if (!(values as readonly string[]).includes(one)) {
          ctx.addIssue({
            code: 'custom',
            message: `${name} must be one or more of ${values.join(', ')} (got "${one.slice(0, 40)}")`,
          });
          return z.NEVER;
        }
      }
      const unique = [...new Set(given)] as T[];
      return unique.length > 0 ? unique : undefined;
    });
}

const filterFields = {
  status: oneOrSeveral('status', TRANSACTION_STATUSES),
  /** How the payments came: prompt, till, paybill (one or several). */
  channel: oneOrSeveral('channel', PAYMENT_CHANNELS),
  from: day('from'),
  to: day('to'),
  q: z
    .string(once('q'))
    .trim()
    .max(SEARCH_MAX_LENGTH, `q must be at most ${SEARCH_MAX_LENGTH} characters`)
    .transform((value) =>
      value === '' ? undefined : stripControlCharacters(value.normalize('NFC')),
    )
    .optional(),
};
const inOrder = (filters: { from?: string | undefined; to?: string | undefined }) =>
  !filters.from || !filters.to || filters.from <= filters.to;
const OUT_OF_ORDER = { message: 'from must not be after to' };

/**
 * The query parameters' pieces, for the other lists that filter as the history does (payouts): a
 * business day, one or several of a set of values, a parameter given once, and from ≤ to.
 */
export const queryParts = { day, oneOrSeveral, once, inOrder, OUT_OF_ORDER } as const;

export const transactionFiltersSchema = z.object(filterFields).refine(inOrder, OUT_OF_ORDER);
export type TransactionFiltersInput = z.input<typeof transactionFiltersSchema>;
export type TransactionFilters = z.output<typeof transactionFiltersSchema>;

/** The languages of the export's header row: the screens' two. */
export const EXPORT_LANGUAGES = ['en', 'sw'] as const;
export type ExportLanguage = (typeof EXPORT_LANGUAGES)[number];

/** `GET /api/mpesa/transactions/export`: the history's filters, and the header row's language. */
export const exportQuerySchema = z
  .object({
    ...filterFields,
    lang: z
      .enum(EXPORT_LANGUAGES, { message: 'lang must be en or sw' })
      .optional()
      .describe('The language of the header row: `en` (the default) or `sw` (Kiswahili)'),
  })
  .refine(inOrder, OUT_OF_ORDER);

/** `GET /api/mpesa/transactions`: the filters, a page size, and where the last page ended. */
export const transactionListQuerySchema = z
  .object({
    ...filterFields,
    limit: z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(LIST_PAGE.maxSize, `limit must be at most ${LIST_PAGE.maxSize}`)
      .default(LIST_PAGE.defaultSize),
    cursor: z.string(once('cursor')).optional(),
  })
  .refine(inOrder, OUT_OF_ORDER);

export const transactionListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(transactionSchema),
  /** Pass back as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
  /**
   * Set when the server masks payers' numbers after this many days (PHONE_RETENTION_DAYS): older
   * settled payments show `254*****5678` and are not found by their old number.
   */
  phoneRetentionDays: z.number().int().positive().optional(),
});
export type TransactionListResponse = z.infer<typeof transactionListResponseSchema>;

/**
 * What only the merchant's view of a payment carries (HISTORY_ACCESS=operators, to a signed-in
 * operator or a key that reads payments): the flag and M-PESA's own messages as they came.
 */
export const merchantDetailsSchema = z.object({
  /** Why the payment waits for a person's review; null when it does not. */
  flaggedReason: z.string().nullable(),
  /** Daraja's CustomerMessage, as it answered the push. */
  customerMessage: z.string().nullable(),
  /** Whether the one reading may review it (an owner, when it is flagged or its outcome unknown). */
  mayReview: z.boolean(),
  /** Its refund, if one was asked for (one per payment). */
  refund: refundSchema.nullable(),
  /**
   * Whether the one reading may refund it now (a signed-in owner, refunds set up, a success not
   * flagged, not too old, no refund but a failed one); otherwise why not, for an owner
   * (`refundBlockedBy`), null when nothing is to be said (not an owner, already refunded).
   */
  mayRefund: z.boolean(),
  refundBlockedBy: z.enum(REFUND_BLOCKS).nullable(),
  /** Every callback M-PESA sent for this payment, its body exactly as it came, oldest first. */
  callbacks: z.array(
    z.object({ receivedAt: z.string(), outcome: z.string(), rawBody: z.string() }),
  ),
});
export type MerchantDetails = z.infer<typeof merchantDetailsSchema>;

/**
 * One payment. With HISTORY_ACCESS=operators, `view` says whom the answer is for: the payer (the
 * number in part, no merchant's details) or the merchant (with `merchant`). With `open`, neither.
 */
export const transactionViewSchema = transactionSchema.extend({
  view: z.enum(['payer', 'merchant']).optional(),
  merchant: merchantDetailsSchema.optional(),
});
export type TransactionView = z.infer<typeof transactionViewSchema>;

export const transactionResponseSchema = z.object({
  success: z.literal(true),
  data: transactionViewSchema,
});
export type TransactionResponse = z.infer<typeof transactionResponseSchema>;

/** Every failure the API answers carries a stable code and a sentence a payer can read. */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  code: ErrorCode,
  message: z.string(),
  /** The input the refusal is about (a body's field, a query parameter), e.g. `amount`. */
  field: z.string().optional(),
  /**
   * The payment this refusal is about, when one was saved: a push M-PESA refused is kept as a
   * failed payment, and its page can be opened.
   */
  transactionId: z.string().optional(),
  /** A batch file refused: each row's problems (row 1 is the first after the header). */
  problems: z
    .array(z.object({ row: z.number().int(), field: z.string(), message: z.string() }))
    .optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
