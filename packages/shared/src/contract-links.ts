/**
 * Payment links (issue 38): a link the shop makes once (a fixed amount, or one the payer chooses
 * above a minimum; what it is for; a reference; one payment or many; an expiry), and the payer's
 * page at `/pay/<code>` that pays it by the usual prompt. The API validates with these schemas; the
 * web app imports the types only.
 */
import { z } from 'zod';
import { MAX_AMOUNT, MIN_AMOUNT, REFERENCE_MAX_LENGTH, messages } from './constants.ts';
import { amountSchema, phoneNumberSchema, transactionStatusSchema } from './contract.ts';
import { stripControlCharacters } from './text.ts';

/** What a link is for, as the payer reads it (and the prompt's TransactionDesc). */
export const LINK_PURPOSE_MAX_LENGTH = 100;
/** A link's code: the end of its address, `/pay/<code>`. */
export const LINK_CODE_LENGTH = 12;
/** The longest a link may stay open: a year, in days. */
export const LINK_MAX_DAYS = 366;

/**
 * What a link shows: `active` takes payments; `paid` is a one-payment link paid; `expired` and
 * `off` (switched off by the shop) take none.
 */
export const LINK_STATUSES = ['active', 'paid', 'expired', 'off'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

function text(label: string, maxLength: number) {
  return z.string({ error: `${label} must be text` }).transform((value, ctx) => {
    const cleaned = stripControlCharacters(value.normalize('NFC')).trim();
    if (cleaned === '') {
      ctx.addIssue({ code: 'custom', message: `Please say ${label.toLowerCase()}` });
      return z.NEVER;
    }
    if ([...cleaned].length > maxLength) {
      ctx.addIssue({ code: 'custom', message: `${label} must be at most ${maxLength} characters` });
      return z.NEVER;
    }
    return cleaned;
  });
}

/**
 * `POST /api/links`: `amount` for a fixed amount, or `minAmount` for an amount the payer chooses
 * (at least that); `expiresInDays` from now (none: it never expires).
 */
export const createLinkBodySchema = z
  .object(
    {
      amount: amountSchema.optional(),
      minAmount: amountSchema.optional(),
      purpose: text('What it is for', LINK_PURPOSE_MAX_LENGTH),
      reference: text('The reference', REFERENCE_MAX_LENGTH),
      oneOnly: z.boolean({ error: 'oneOnly must be true or false' }),
      expiresInDays: z
        .number({ error: 'expiresInDays must be a number' })
        .int('expiresInDays must be a whole number of days')
        .min(1, 'expiresInDays must be at least 1')
        .max(LINK_MAX_DAYS, `expiresInDays must be at most ${LINK_MAX_DAYS}`)
        .optional(),
    },
    { error: 'The request body must be a JSON object' },
  )
  .superRefine((link, ctx) => {
    if (link.amount !== undefined && link.minAmount !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['minAmount'],
        message: 'Give either a fixed amount or a minimum for the payer to choose above, not both',
      });
    }
  });
export type CreateLinkInput = z.input<typeof createLinkBodySchema>;

/** A payment made through a link, as the shop's people see it. */
export const linkPaymentSchema = z.object({
  transactionId: z.string(),
  amount: z.number(),
  status: transactionStatusSchema,
  phoneNumber: z.string(),
  mpesaReceiptNumber: z.string().nullable(),
  createdAt: z.string(),
});
export type LinkPayment = z.infer<typeof linkPaymentSchema>;

/** A link, as the shop's people see it. */
export const linkSchema = z.object({
  id: z.string(),
  code: z.string(),
  /** The fixed amount; null when the payer chooses (at least `minAmount`). */
  amount: z.number().nullable(),
  minAmount: z.number().nullable(),
  purpose: z.string(),
  reference: z.string(),
  oneOnly: z.boolean(),
  expiresAt: z.string().nullable(),
  status: z.enum(LINK_STATUSES),
  createdBy: z.string(),
  createdAt: z.string(),
  /** The payments made through it that succeeded, and what they add up to, in KES. */
  paidCount: z.number().int(),
  collected: z.number(),
});
export type Link = z.infer<typeof linkSchema>;

export const linkListResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ links: z.array(linkSchema) }),
});
export type LinkListResponse = z.infer<typeof linkListResponseSchema>;

export const linkResponseSchema = z.object({
  success: z.literal(true),
  data: linkSchema.extend({ payments: z.array(linkPaymentSchema) }),
});
export type LinkWithPayments = z.infer<typeof linkResponseSchema>['data'];

/**
 * What the payer's page shows: the shop, the amount and what it is for, and whether it takes a
 * payment. Nothing about anyone who paid it.
 */
export const payerLinkSchema = z.object({
  code: z.string(),
  shopName: z.string().nullable(),
  amount: z.number().nullable(),
  minAmount: z.number().nullable(),
  purpose: z.string(),
  reference: z.string(),
  status: z.enum(LINK_STATUSES),
});
export type PayerLink = z.infer<typeof payerLinkSchema>;

export const payerLinkResponseSchema = z.object({
  success: z.literal(true),
  data: payerLinkSchema,
});
export type PayerLinkResponse = z.infer<typeof payerLinkResponseSchema>;

/**
 * M-PESA's own QR code for a link (Daraja's Dynamic QR): a PNG, base64, that the M-PESA app's
 * scanner reads to pay the shop's till (`BG`, buy goods) or paybill (`PB`) the link's amount,
 * with its reference.
 */
export const mpesaQrSchema = z.object({
  png: z.string(),
  trxCode: z.enum(['BG', 'PB']),
  shortcode: z.string(),
  amount: z.number(),
  reference: z.string(),
  merchantName: z.string(),
});
export type MpesaQr = z.infer<typeof mpesaQrSchema>;

export const mpesaQrResponseSchema = z.object({
  success: z.literal(true),
  data: mpesaQrSchema,
});
export type MpesaQrResponse = z.infer<typeof mpesaQrResponseSchema>;

/** `POST /api/pay/:code`: the payer's phone, and the amount only when the link lets them choose. */
export const payLinkBodySchema = z.object(
  {
    phoneNumber: phoneNumberSchema,
    amount: amountSchema.optional(),
  },
  { error: 'The request body must be a JSON object' },
);
export type PayLinkInput = z.input<typeof payLinkBodySchema>;

export { MAX_AMOUNT, MIN_AMOUNT, messages };
