/**
 * The transaction state machine: pending → success | failed | cancelled | timeout.
 *
 * `success` is final forever: M-PESA took the payer's money, and nothing learnt later (a query that
 * says otherwise, a late failure callback) may hide that. The sandbox is known to answer STK queries
 * with a failure for payments whose callback reported success (PROTOCOL.md §5), so a query never
 * downgrades anything.
 *
 * The other final states are final against everything but a genuine success callback: when we
 * gave up on a payment (timeout by reconciliation, an unknown outcome) and M-PESA later reports that
 * the money moved, the record must say so.
 */
import type { TransactionStatus } from '@mpesa/shared';
import type { EventSource } from '../db/schema.ts';

export type Decision =
  { kind: 'apply' } | { kind: 'duplicate' } | { kind: 'ignore'; reason: string };

export function decideTransition(
  from: TransactionStatus,
  to: TransactionStatus,
  source: EventSource,
  sameOutcome: boolean,
): Decision {
  if (from === 'pending') return to === 'pending' ? { kind: 'duplicate' } : { kind: 'apply' };
  if (from === to && sameOutcome) return { kind: 'duplicate' };
  if (from === 'success') return { kind: 'ignore', reason: 'success is final' };
  if (to === 'success' && source === 'callback') return { kind: 'apply' };
  return { kind: 'ignore', reason: `${from} is final; only a success callback may change it` };
}
