/**
 * One decision: what a report from M-PESA about a refund does to it. Pure, tested as a table
 * (decide-refund.test.ts); refund-outcome.ts carries it out.
 *
 * The reports: the reversal's own Result (docs/daraja-protocol.md §M7), and the Result of a
 * transaction status query asked about the reversal when that Result did not come (§M5).
 *
 * A reversed refund is final: the money went back, and nothing reported later makes it failed
 * (a late failure, a query answered before M-PESA had finished). A failed one is lifted to reversed
 * by a report that the money did go back, since the record must say where the money is.
 */
import type { RefundStatus } from '@mpesa/shared';
import type { CallbackOutcome } from '../../db/schema.ts';

/** Reversal's code for "already reversed": the money went back, by this request or an earlier. */
export const ALREADY_REVERSED = 'R000001';
/** "The OriginalTransactionID is invalid.": M-PESA knows no such transaction (§M7, §M5.1). */
export const NO_SUCH_TRANSACTION = 'R000002';

export const NO_RECORD_OF_REVERSAL = 'M-PESA has no record of the reversal';

export type RefundReport =
  | { kind: 'reversal'; resultCode: string; resultDesc: string; receipt: string | null }
  | {
      kind: 'status';
      resultCode: string;
      resultDesc: string;
      /** The Result's TransactionStatus: Completed, Declined, Cancelled, Expired, or not final. */
      transactionStatus: string | null;
      /** The Result's ReceiptNo: the reversal's own receipt. */
      receipt: string | null;
    };

export type RefundDecision =
  | { kind: 'reversed'; receipt: string | null; resultCode: string; description: string }
  | { kind: 'failed'; resultCode: string | null; description: string }
  /** Nothing changes: the same outcome again, or a report a final refund does not take. */
  | { kind: 'keep'; outcome: Extract<CallbackOutcome, 'duplicate' | 'ignored'> }
  /** Not known yet: the recovery asks again on its schedule. */
  | { kind: 'later' };

type Reading =
  | { said: 'reversed'; receipt: string | null; resultCode: string; description: string }
  | { said: 'failed'; resultCode: string | null; description: string }
  | { said: 'unknown' };

/** The final statuses transaction status gives a transaction that did not complete (§M5). */
const NOT_COMPLETED = new Set(['Declined', 'Cancelled', 'Expired']);

function read(report: RefundReport, pastGiveUp: boolean): Reading {
  const { resultCode, resultDesc } = report;
  if (report.kind === 'reversal') {
    if (resultCode === '0' || resultCode === ALREADY_REVERSED) {
      // An already reversed receipt's Result carries a placeholder, not the reversal's receipt.
      const receipt = resultCode === '0' ? report.receipt : null;
      return { said: 'reversed', receipt, resultCode, description: resultDesc };
    }
    return { said: 'failed', resultCode, description: resultDesc };
  }
  if (resultCode === '0' && report.transactionStatus === 'Completed') {
    return { said: 'reversed', receipt: report.receipt, resultCode, description: resultDesc };
  }
  if (resultCode === '0' && NOT_COMPLETED.has(report.transactionStatus ?? '')) {
    return {
      said: 'failed',
      resultCode: null,
      description: `M-PESA reports the reversal as ${report.transactionStatus}`,
    };
  }
  // M-PESA may not have booked the reversal yet: only after REFUND_GIVE_UP_S is it taken as never
  // made. Any other code is the query's own failure (credentials, a busy M-PESA): ask again.
  if (resultCode === NO_SUCH_TRANSACTION && pastGiveUp) {
    return { said: 'failed', resultCode, description: NO_RECORD_OF_REVERSAL };
  }
  return { said: 'unknown' };
}

/**
 * What `report` does to a refund now `status`; `pastGiveUp`: REFUND_GIVE_UP_S has passed since
 * the refund was asked for.
 */
export function decideRefund(
  status: RefundStatus,
  report: RefundReport,
  pastGiveUp: boolean,
): RefundDecision {
  const reading = read(report, pastGiveUp);
  if (status === 'reversed') {
    return { kind: 'keep', outcome: reading.said === 'reversed' ? 'duplicate' : 'ignored' };
  }
  if (reading.said === 'unknown') return { kind: 'later' };
  if (reading.said === 'reversed') {
    const { receipt, resultCode, description } = reading;
    return { kind: 'reversed', receipt, resultCode, description };
  }
  if (status === 'failed') return { kind: 'keep', outcome: 'duplicate' };
  return { kind: 'failed', resultCode: reading.resultCode, description: reading.description };
}
