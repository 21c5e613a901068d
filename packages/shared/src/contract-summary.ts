/**
 * The HTTP contract of the merchant's figures at a glance (`GET /api/mpesa/summary`, docs/product.md
 * §2). `contract.ts` re-exports it.
 */
import { z } from 'zod';
import { TRANSACTION_STATUSES } from './constants.ts';

const transactionStatusSchema = z.enum(TRANSACTION_STATUSES);

/**
 * What came in over a period: successes' total (net of refunds: a refunded payment is no longer a
 * success), payments started, the share that succeeded, and what was given back.
 */
export const periodSummarySchema = z.object({
  collected: z.number(),
  /** The payments of the period refunded since, and their total. */
  refundedCount: z.number(),
  refunded: z.number(),
  count: z.number(),
  /** Of `count`, the payments still waiting for M-PESA's answer. */
  pendingCount: z.number(),
  successCount: z.number(),
  /**
   * Successes (refunded ones included: they were paid) among the payments with an outcome
   * (pending ones not counted); null if none.
   */
  successRate: z.number().nullable(),
});
export type PeriodSummary = z.infer<typeof periodSummarySchema>;

/** `GET /api/mpesa/summary`: the merchant's figures at a glance, in business days. */
export const summaryResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    timeZone: z.string(),
    today: periodSummarySchema,
    last7Days: periodSummarySchema,
    /** The last 14 business days, oldest first, each with its count and amount by status. */
    daily: z.array(
      z.object({
        day: z.string(),
        byStatus: z.array(
          z.object({ status: transactionStatusSchema, count: z.number(), amount: z.number() }),
        ),
      }),
    ),
  }),
});
export type Summary = z.infer<typeof summaryResponseSchema>['data'];

/**
 * `GET /api/mpesa/transactions/totals`: what the history's filters select adds up to, over the
 * whole selection (the list shows it a page at a time).
 */
export const selectionTotalsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    /** Payments the filters select. */
    count: z.number(),
    /** Of them, those that succeeded (a refunded one is no longer paid), and their sum in KES. */
    paidCount: z.number(),
    paid: z.number(),
  }),
});
export type SelectionTotals = z.infer<typeof selectionTotalsResponseSchema>['data'];
