/**
 * The HTTP contract of the balance M-PESA holds for the shop (issue 37): the accounts of the latest
 * Account Balance read, with when it was read, and the business day's money in, money out and fees
 * beside the change in balance they should make.
 */
import { z } from 'zod';

/** One account, as Account Balance gives it (docs/daraja-protocol.md §M6), amounts in KES. */
export const balanceAccountSchema = z.object({
  /** `Working Account`, `Utility Account`, `Charges Paid Account`, … as M-PESA names it. */
  name: z.string(),
  currency: z.string(),
  /** The first amount: what the account holds to use. */
  available: z.number(),
  /** The other three amounts, whose meaning Daraja's docs garble (§M10 15). */
  uncleared: z.number(),
  reserved: z.number(),
  other: z.number(),
});
export type BalanceAccount = z.infer<typeof balanceAccountSchema>;

export const balanceReadingSchema = z.object({
  id: z.string(),
  shortcode: z.string(),
  status: z.enum(['asked', 'read', 'failed']),
  /** Who asked; null: the schedule. */
  askedBy: z.string().nullable(),
  askedAt: z.string(),
  /** When M-PESA's answer came; null until it has. */
  readAt: z.string().nullable(),
  accounts: z.array(balanceAccountSchema).nullable(),
  /** Every account's available amount added up, in KES (the Charges Paid Account is negative). */
  total: z.number().nullable(),
  resultCode: z.string().nullable(),
  resultDescription: z.string().nullable(),
});
export type BalanceReading = z.infer<typeof balanceReadingSchema>;

/**
 * The day's money beside the balance: in (payments received to this shortcode), out (payouts and
 * refunds) and fees (the payouts' charges), between the day's first reading and its latest, and
 * whether they make the change in balance between them (null: fewer than two readings today).
 */
export const balanceDaySchema = z.object({
  day: z.string(),
  moneyIn: z.number(),
  moneyOut: z.number(),
  fees: z.number(),
  /** The change in the total between the day's first and latest readings. */
  change: z.number().nullable(),
  /** moneyIn − moneyOut − fees over the same time. */
  expectedChange: z.number().nullable(),
  agrees: z.boolean().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type BalanceDay = z.infer<typeof balanceDaySchema>;

export const balanceResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    /** The latest reading M-PESA answered; none answered yet: the last asked. */
    latest: balanceReadingSchema.nullable(),
    /** A reading asked after `latest`, still awaited or failed; null when there is none. */
    newer: balanceReadingSchema.nullable(),
    day: balanceDaySchema,
  }),
});
export type BalanceResponse = z.infer<typeof balanceResponseSchema>;

export const balanceAskedResponseSchema = z.object({
  success: z.literal(true),
  data: balanceReadingSchema,
});
