/**
 * The transaction state machine: pending → success | failed | cancelled | timeout | unknown.
 *
 * `success` is final forever: M-PESA took the payer's money, and nothing learnt later (a query that
 * says otherwise, a late failure callback) may hide that. The sandbox is known to answer STK queries
 * with a failure for payments whose callback reported success (docs/daraja-protocol.md §5), so a query never
 * changes a final state.
 *
 * `unknown` means M-PESA never told us the outcome (reconciliation gave up): the first report from
 * M-PESA about it is news and is applied, whatever it says.
 *
 * `refunded` (a success whose money a reversal gave back, refunds/) is as final: a late report of the
 * payment's success is a duplicate, and nothing else changes it either.
 *
 * The other final states (failed, cancelled, timeout) are final against everything but a success
 * callback: when M-PESA reports that the money moved, the record must say so. A callback that
 * contradicts an earlier callback for the same request is itself suspicious: it is recorded, and the
 * transaction is flagged for a person to review (the success still lifts the status, so a payer who
 * paid is never shown as unpaid).
 */
import type { TransactionStatus } from '@mpesa/shared';
import type { EventSource } from '../../db/schema.ts';

export type Decision =
  | { kind: 'apply'; contradicts: boolean }
  | { kind: 'duplicate' }
  | { kind: 'contradiction' }
  | { kind: 'ignore'; reason: string };

/** Statuses M-PESA has not yet given an outcome for. */
export function isOpen(status: TransactionStatus): boolean {
  return status === 'pending' || status === 'unknown';
}

export interface Report {
  to: Exclude<TransactionStatus, 'pending'>;
  source: EventSource;
  /** The report's ResultCode is the one already recorded. */
  sameResult: boolean;
}

/**
 * What a report from M-PESA does to a transaction in status `from`, whose current status was set by
 * `earlierSource` (null while it is open).
 */
export function decideTransition(
  from: TransactionStatus,
  report: Report,
  earlierSource: EventSource | null,
): Decision {
  if (isOpen(from)) return { kind: 'apply', contradicts: false };
  if (from === 'refunded') {
    return report.to === 'success'
      ? { kind: 'duplicate' }
      : { kind: 'ignore', reason: 'refunded is final: the money went back' };
  }
  if (from === report.to && report.sameResult) return { kind: 'duplicate' };
  const contradicts = report.source === 'callback' && earlierSource === 'callback';
  if (report.to === 'success' && report.source === 'callback') {
    return from === 'success' ? { kind: 'duplicate' } : { kind: 'apply', contradicts };
  }
  if (contradicts) return { kind: 'contradiction' };
  if (from === 'success') return { kind: 'ignore', reason: 'success is final' };
  return { kind: 'ignore', reason: `${from} is final; only a success callback may change it` };
}
