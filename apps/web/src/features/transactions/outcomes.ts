/**
 * Picks a sentence from the outcome table (outcome-words.en.ts) for a payment or a timeline event.
 */
import type { TransactionStatus } from '@mpesa/shared';
import type { TransactionEvent } from '@mpesa/shared/contract-events';
import type { OutcomeWords, Said } from './outcome-words';
import type { StatusWords } from './status-words';

export type Reader = keyof Said;

/**
 * The code's sentences, where the code agrees with the status: a success is never explained by a
 * failure's code, nor a failure by success's; an unknown outcome has no code that explains it, nor
 * a refunded one (its code is the payment's, which succeeded; the refund's is the refund's own).
 */
const UNEXPLAINED: readonly TransactionStatus[] = ['pending', 'success', 'unknown', 'refunded'];

function byCode(words: OutcomeWords, status: TransactionStatus, resultCode: string | null) {
  if (UNEXPLAINED.includes(status)) return undefined;
  if (resultCode === null || resultCode === '0') return undefined;
  return (words.codes as Readonly<Record<string, Said>>)[resultCode];
}

/**
 * The payer's sentence for a payment's outcome, or null while it is pending (the required
 * "Please complete the payment on your phone." says it then, docs/product.md §2).
 */
export function payerSentence(
  words: OutcomeWords,
  status: TransactionStatus,
  resultCode: string | null,
): string | null {
  if (status === 'pending') return null;
  return byCode(words, status, resultCode)?.payer ?? words.statuses[status].payer;
}

/** The merchant's sentence for a payment's status: what it means for the shop. */
export function merchantSentence(words: OutcomeWords, status: TransactionStatus): string {
  return status === 'pending' ? words.merchantPending : words.statuses[status].merchant;
}

/** Why a payment did not go through, for the merchant, when M-PESA's code says it. */
export function merchantReason(
  words: OutcomeWords,
  status: TransactionStatus,
  resultCode: string | null,
): string | null {
  return byCode(words, status, resultCode)?.merchant ?? null;
}

/** The event's sentence for the reader, from the table, in the table's language. */
export function eventSentence(
  words: OutcomeWords,
  statusWords: StatusWords,
  event: TransactionEvent,
  reader: Reader,
): string {
  // What a callback or a query reported may differ from the status kept ("changed nothing").
  // A kind this version does not know (an API newer than the page) is told by its status.
  const said = (words.events as Partial<OutcomeWords['events']>)[event.kind] ?? words.events.other;
  return said[reader]({
    result: words.results[event.reported?.status ?? event.toStatus],
    status: statusWords[event.toStatus],
    receipt: event.reported?.receipt ?? null,
    asked: event.source === 'query',
    who: event.reviewer,
  });
}
