/**
 * What becomes of a shop's STK pushes, in the proportions merchants report: most are paid, about
 * one in eight is cancelled at the PIN prompt, phones that are off or ignore the prompt time out,
 * some payers lack the funds or mistype their PIN, and a very few are never reported at all.
 * Result codes and texts as Daraja sends them (docs/daraja-protocol.md §4.2).
 */
import { DEFAULT_DESCRIPTION, type TransactionStatus } from '@mpesa/shared';

export interface Outcome {
  status: Exclude<TransactionStatus, 'pending'>;
  /** Null when M-PESA never reported (reconciliation gave up). */
  resultCode: string | null;
  resultDesc: string;
  /** Per 100 payments. */
  weight: number;
  /** Seconds from the push to the callback: how long payers take to answer, or the prompt to lapse. */
  delayS: readonly [number, number];
  source: 'callback' | 'reconciliation';
}

const callback = (
  status: Outcome['status'],
  resultCode: string,
  resultDesc: string,
  weight: number,
  delayS: readonly [number, number],
): Outcome => ({ status, resultCode, resultDesc, weight, delayS, source: 'callback' });

export const OUTCOMES: readonly Outcome[] = [
  callback('success', '0', 'The service request is processed successfully.', 72.5, [10, 45]),
  callback('cancelled', '1032', 'Request Cancelled by user.', 12, [4, 20]),
  callback('timeout', '1037', 'DS timeout user cannot be reached.', 7, [45, 65]),
  callback('timeout', '1019', 'Transaction has expired', 1, [60, 90]),
  callback('failed', '1', 'The balance is insufficient for the transaction.', 4, [8, 30]),
  callback('failed', '2001', 'The initiator information is invalid.', 2, [12, 40]),
  callback(
    'failed',
    '1001',
    'Unable to lock subscriber, a transaction is already in process for the current subscriber',
    0.7,
    [2, 5],
  ),
  callback('failed', '17', 'Rule limited.', 0.5, [2, 5]),
  {
    status: 'unknown',
    resultCode: null,
    resultDesc: '',
    weight: 0.3,
    delayS: [0, 0],
    source: 'reconciliation',
  },
];

/** Safaricom's mobile prefixes after 254 (07xx and 011x numbers): only they can get an STK push. */
export const SAFARICOM_PREFIXES: readonly string[] = [
  ...Array.from({ length: 30 }, (_, i) => String(700 + i)),
  ...['740', '741', '742', '743', '745', '746', '748', '757', '758', '759', '768', '769'],
  ...Array.from({ length: 10 }, (_, i) => String(790 + i)),
  ...Array.from({ length: 6 }, (_, i) => String(110 + i)),
];

/** What shops sell by M-PESA Express, and how often. */
export const DESCRIPTIONS = [
  { text: DEFAULT_DESCRIPTION, weight: 50 },
  { text: 'Groceries', weight: 14 },
  { text: 'Cooking gas refill', weight: 6 },
  { text: 'Hardware supplies', weight: 6 },
  { text: 'Phone accessories', weight: 5 },
  { text: 'School uniform', weight: 4 },
  { text: 'Delivery fee', weight: 8 },
  { text: 'Deposit for order', weight: 7 },
] as const;
