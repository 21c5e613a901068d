/**
 * The contract of a payer's "I have paid" (POST /api/mpesa/transactions/:id/check): the payment as
 * its page shows it, and what M-PESA was found to say. Beside contract.ts, as the other contracts.
 */
import { z } from 'zod';
import { transactionResponseSchema } from './contract.ts';

/**
 * `result`: M-PESA gave the outcome (the payment shows it); `processing`: M-PESA still waits for
 * the payer; `unreachable`: M-PESA could not be asked; `not_sent`: M-PESA has not acknowledged the
 * request yet; `settled`: the payment was no longer pending, and M-PESA was not asked.
 */
export const checkFoundSchema = z.enum([
  'result',
  'processing',
  'unreachable',
  'not_sent',
  'settled',
]);
export type CheckFound = z.infer<typeof checkFoundSchema>;

export const checkResponseSchema = transactionResponseSchema.extend({ found: checkFoundSchema });
export type CheckResponse = z.infer<typeof checkResponseSchema>;
