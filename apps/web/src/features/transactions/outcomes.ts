/**
 * Picks a sentence from the outcome table (outcome-words.en.ts) for a payment or a timeline event.
 */
import type { EventKind, TransactionStatus } from '@mpesa/shared';
import type { TransactionEvent } from '@mpesa/shared/contract-events';
import type { OutcomeWords, Said } from './outcome-words';
import type { StatusWords } from './status-words';

export type Reader = keyof Said;

/**
 * The code's sentences, where the code agrees with the status: a success is never explained by a
 * failure's code, nor a failure by success's; an unknown outcome has no code that explains it.
 */
function byCode(words: OutcomeWords, status: TransactionStatus, resultCode: string | null) {
  if (status === 'pending' || status === 'success' || status === 'unknown') return undefined;
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

/*
 * The timeline's contract (packages/shared/src/contract-events.ts) carries no event kind: the
 * kind is read back from the API's fixed titles (apps/api/src/transactions/events.routes.ts,
 * describeEvent), and an event not recognised is 'other', told by the status it brought.
 */
const REPORT_ENDINGS: ReadonlyArray<readonly [string, EventKind]> = [
  [': duplicate, changed nothing', 'duplicate'],
  [', not applied while under review', 'not_applied_under_review'],
  [', receipt added', 'receipt_added'],
  [', settling the unknown outcome', 'settled_unknown'],
  [', changed nothing', 'ignored'],
];

function initiationKind(title: string): EventKind {
  if (title.startsWith('Saved before')) return 'saved';
  if (title === 'Accepted by M-PESA') return 'accepted';
  if (title === 'M-PESA did not confirm the payment request') return 'push_unknown';
  if (title === 'M-PESA refused the payment request' || title === 'M-PESA could not be reached') {
    return 'push_failed';
  }
  return 'other';
}

function reportKind(event: TransactionEvent): EventKind {
  const ending = REPORT_ENDINGS.find(([end]) => event.title.endsWith(end));
  if (ending) return ending[1];
  if (/, replacing [a-z ]+$/.test(event.title)) {
    if (event.detail?.startsWith('Flagged for review')) return 'lifted_flagged';
    if (event.detail === 'Still flagged for review') return 'lifted_under_review';
    return 'lifted';
  }
  return 'applied';
}

/** The kind of a timeline event. */
export function eventKindOf(event: TransactionEvent): EventKind {
  if (event.title.startsWith('Flagged for review:')) return 'flagged';
  switch (event.source) {
    case 'initiation':
      return initiationKind(event.title);
    case 'callback':
    case 'query':
      return reportKind(event);
    case 'reconciliation':
      return event.toStatus === 'unknown' ? 'gave_up' : 'other';
    case 'review':
      return event.detail?.startsWith('Unknown outcome settled')
        ? 'unknown_settled'
        : 'flag_cleared';
  }
}

/** What M-PESA reported, in the API's words (events.routes.ts, resultWords), by status. */
const REPORTED: ReadonlyArray<readonly [RegExp, TransactionStatus]> = [
  [/^paid\b/, 'success'],
  [/^cancelled\b/, 'cancelled'],
  [/^not answered\b/, 'timeout'],
  [/^outcome unknown\b/, 'unknown'],
  [/^failed\b/, 'failed'],
];

/** What a callback or a query reported (it may differ from the status kept: "changed nothing"). */
function reportedStatus(event: TransactionEvent): TransactionStatus {
  const result = event.title.replace(/^[^:]*:\s*/, '');
  return REPORTED.find(([pattern]) => pattern.test(result))?.[1] ?? event.toStatus;
}

/** The event's sentence for the reader, from the table, in the table's language. */
export function eventSentence(
  words: OutcomeWords,
  statusWords: StatusWords,
  event: TransactionEvent,
  reader: Reader,
): string {
  const kind = eventKindOf(event);
  const reported =
    event.source === 'callback' || event.source === 'query'
      ? reportedStatus(event)
      : event.toStatus;
  const who = /^Reviewed by (.+): (?:kept|marked) /.exec(event.title)?.[1];
  return words.events[kind][reader]({
    result: words.results[reported],
    status: statusWords[event.toStatus],
    receipt: /\(receipt ([A-Za-z0-9]+)\)/.exec(event.title)?.[1] ?? null,
    asked: event.source === 'query',
    who: who && who !== 'a person' ? who : null,
  });
}
