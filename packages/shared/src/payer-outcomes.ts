/**
 * What a payment's outcome allows the payer. The sentences that say what an outcome means, per
 * Daraja ResultCode and per status, for the payer and for the merchant, in each language, are one
 * table in the web app (apps/web/src/features/transactions/outcome-words.en.ts).
 */
import type { TransactionStatus } from './constants.ts';

/** Outcomes after which the same payment can safely be asked for again: no money moved. */
export function canTryAgain(status: TransactionStatus): boolean {
  return status === 'failed' || status === 'cancelled' || status === 'timeout';
}
