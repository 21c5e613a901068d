/**
 * The refusals of a payer's "I have paid" (POST /mpesa/transactions/:id/check): M-PESA is asked
 * at most so often per payment and per address (features/reconciliation/payer-check.ts). They answer 429 with
 * the general code TOO_MANY_REQUESTS (no new code: the codes' list is in the first screen's
 * download) and a sentence saying which limit and for how long.
 */
import { AppError } from './app-error.ts';

/** M-PESA was asked about this payment a moment ago: ask again in `retryAfterS`. */
export const checkTooSoon = (retryAfterS: number) =>
  new AppError(
    429,
    'TOO_MANY_REQUESTS',
    `M-PESA was asked about this payment a moment ago. Please wait ${retryAfterS} seconds and ask again.`,
    { retryAfterS },
  );

/** This payment has been checked as often as a payer may: its page still follows it. */
export const checksSpent = (retryAfterS: number) =>
  new AppError(
    429,
    'TOO_MANY_REQUESTS',
    'M-PESA has been asked about this payment several times already. This page will update as soon as M-PESA reports.',
    { retryAfterS },
  );

/** The address's allowance of checks is spent until its window ends. */
export const tooManyChecks = (retryAfterS: number) =>
  new AppError(
    429,
    'TOO_MANY_REQUESTS',
    'Too many checks from your network. Please wait a minute and try again.',
    { retryAfterS },
  );
