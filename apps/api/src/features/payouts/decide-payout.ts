/**
 * One decision: what a report from M-PESA about a payout does to it. Pure, tested as a table
 * (decide-payout.test.ts); payout-outcome.ts carries it out.
 *
 * The reports: the payout's own Result (B2C §M4.3, B2B §M8.1), and the Result of a transaction
 * status query asked about it when its answer or its Result was lost, or to learn a paid B2C
 * payout's charge, which its Result does not carry (§M5: `DebitPartyCharges`).
 *
 * A succeeded payout is final: the money left, and nothing reported later makes it failed. A failed
 * one is lifted to succeeded by a report that it was paid, since the record must say where the
 * money is. A payout to a phone M-PESA has no record of is sent again with the same
 * OriginatorConversationID, which M-PESA refuses if it had it after all (§M4.1): never paid twice.
 */
import type { PayoutStatus } from '@mpesa/shared/contract-payouts';
import type { CallbackOutcome } from '../../db/schema.ts';

/** "The OriginalTransactionID is invalid.": M-PESA knows no such transaction (§M5.1). */
export const NO_SUCH_TRANSACTION = 'R000002';

export interface Paid {
  receipt: string | null;
  receiverName: string | null;
  /** The charge in cents; null when the report does not say (a B2C Result never does). */
  chargeCents: number | null;
}

export type PayoutReport =
  | ({ kind: 'result'; resultCode: string; resultDesc: string } & Paid)
  | ({
      kind: 'status';
      resultCode: string;
      resultDesc: string;
      /** Completed, Declined, Cancelled, Expired, or not final. */
      transactionStatus: string | null;
    } & Paid);

export interface PayoutSituation {
  status: PayoutStatus;
  /** A B2C payout: its OriginatorConversationID is ours, and M-PESA refuses it used again. */
  toPhone: boolean;
  /** Its charge is known already. */
  chargeKnown: boolean;
  /** PAYOUT_GIVE_UP_S has passed since it was approved. */
  pastGiveUp: boolean;
}

export type PayoutDecision =
  | ({ kind: 'succeeded'; resultCode: string; description: string } & Paid)
  /** `said`: M-PESA's own words, kept beside the plain ones (payout-outcome.ts). */
  | { kind: 'failed'; resultCode: string | null; said: string | null }
  /** A paid payout's charge (and the receiver's name, if it had none), learnt later. */
  | { kind: 'charge'; chargeCents: number; receiverName: string | null }
  /** M-PESA has no record of a payout to a phone: sent again with the same id. */
  | { kind: 'resend' }
  | { kind: 'keep'; outcome: Extract<CallbackOutcome, 'duplicate' | 'ignored'> }
  /** Not known yet: the recovery asks again on its schedule. */
  | { kind: 'later' };

type Reading =
  | ({ said: 'paid'; resultCode: string; description: string } & Paid)
  | { said: 'failed'; resultCode: string | null; words: string | null }
  | { said: 'no record' }
  | { said: 'unknown' };

const NOT_COMPLETED = new Set(['Declined', 'Cancelled', 'Expired']);

function read(report: PayoutReport): Reading {
  const { resultCode, resultDesc, receipt, receiverName, chargeCents } = report;
  const paid = { receipt, receiverName, chargeCents, resultCode, description: resultDesc };
  if (report.kind === 'result') {
    return resultCode === '0'
      ? { said: 'paid', ...paid }
      : { said: 'failed', resultCode, words: resultDesc };
  }
  if (resultCode === '0' && report.transactionStatus === 'Completed')
    return { said: 'paid', ...paid };
  if (resultCode === '0' && NOT_COMPLETED.has(report.transactionStatus ?? '')) {
    return {
      said: 'failed',
      resultCode: null,
      words: `M-PESA reports the payout as ${report.transactionStatus}`,
    };
  }
  if (resultCode === NO_SUCH_TRANSACTION) return { said: 'no record' };
  // The query's own failure (credentials, a busy M-PESA), or not final yet: ask again.
  return { said: 'unknown' };
}

export function decidePayout(situation: PayoutSituation, report: PayoutReport): PayoutDecision {
  const reading = read(report);
  const { status } = situation;
  if (status === 'proposed' || status === 'declined') return { kind: 'keep', outcome: 'ignored' };
  if (status === 'succeeded') {
    if (reading.said !== 'paid') return { kind: 'keep', outcome: 'ignored' };
    if (situation.chargeKnown || reading.chargeCents === null) {
      return { kind: 'keep', outcome: 'duplicate' };
    }
    return { kind: 'charge', chargeCents: reading.chargeCents, receiverName: reading.receiverName };
  }
  if (reading.said === 'paid') {
    const { said: _said, ...paid } = reading;
    return { kind: 'succeeded', ...paid };
  }
  if (status === 'failed') return { kind: 'keep', outcome: 'duplicate' };
  if (reading.said === 'failed') {
    return { kind: 'failed', resultCode: reading.resultCode, said: reading.words };
  }
  if (reading.said === 'no record') {
    if (situation.toPhone && !situation.pastGiveUp) return { kind: 'resend' };
    if (situation.pastGiveUp) {
      return { kind: 'failed', resultCode: NO_SUCH_TRANSACTION, said: null };
    }
  }
  return { kind: 'later' };
}
