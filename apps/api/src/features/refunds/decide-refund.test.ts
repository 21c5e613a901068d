/** What a report from M-PESA does to a refund, as a table. */
import { describe, expect, it } from 'vitest';
import type { RefundStatus } from '@mpesa/shared';
import {
  NO_RECORD_OF_REVERSAL,
  decideRefund,
  type RefundDecision,
  type RefundReport,
} from './decide-refund.ts';

const reversal = (resultCode: string, resultDesc = 'said'): RefundReport => ({
  kind: 'reversal',
  resultCode,
  resultDesc,
  receipt: resultCode === '0' ? 'UK2REV0001' : 'UK20000000',
});
const status = (resultCode: string, transactionStatus: string | null = null): RefundReport => ({
  kind: 'status',
  resultCode,
  resultDesc: 'said',
  transactionStatus,
  receipt: transactionStatus ? 'UK2REV0001' : null,
});

const REVERSED: RefundDecision = {
  kind: 'reversed',
  receipt: 'UK2REV0001',
  resultCode: '0',
  description: 'said',
};

const ROWS: [string, RefundStatus, RefundReport, boolean, RefundDecision][] = [
  ['a Result 0 reverses a requested refund', 'requested', reversal('0'), false, REVERSED],
  [
    'R000001 (already reversed) is reversed too: the money did go back',
    'requested',
    reversal('R000001'),
    false,
    { kind: 'reversed', receipt: null, resultCode: 'R000001', description: 'said' },
  ],
  [
    'any other code fails it, with the code and M-PESA’s words',
    'requested',
    reversal('1', 'The balance is insufficient for the transaction.'),
    false,
    {
      kind: 'failed',
      resultCode: '1',
      description: 'The balance is insufficient for the transaction.',
    },
  ],
  [
    'the same Result again changes nothing',
    'reversed',
    reversal('0'),
    false,
    { kind: 'keep', outcome: 'duplicate' },
  ],
  [
    'a failure never downgrades a reversed refund',
    'reversed',
    reversal('2001'),
    false,
    { kind: 'keep', outcome: 'ignored' },
  ],
  [
    'a failure again on a failed refund changes nothing',
    'failed',
    reversal('1'),
    false,
    { kind: 'keep', outcome: 'duplicate' },
  ],
  ['a late success lifts a failed refund', 'failed', reversal('0'), true, REVERSED],
  [
    'transaction status Completed reverses it, with the reversal’s receipt',
    'requested',
    status('0', 'Completed'),
    false,
    { ...REVERSED, receipt: 'UK2REV0001' },
  ],
  [
    'transaction status Declined fails it',
    'requested',
    status('0', 'Declined'),
    false,
    { kind: 'failed', resultCode: null, description: 'M-PESA reports the reversal as Declined' },
  ],
  [
    'a transaction not yet final is asked about later',
    'requested',
    status('0', 'Authorized'),
    false,
    { kind: 'later' },
  ],
  [
    'no record of it (R000002) before REFUND_GIVE_UP_S: later',
    'requested',
    status('R000002'),
    false,
    { kind: 'later' },
  ],
  [
    'no record of it after REFUND_GIVE_UP_S: failed',
    'requested',
    status('R000002'),
    true,
    { kind: 'failed', resultCode: 'R000002', description: NO_RECORD_OF_REVERSAL },
  ],
  [
    'a query that failed itself (2001) says nothing of the reversal: later',
    'requested',
    status('2001'),
    true,
    { kind: 'later' },
  ],
  [
    'no record of it never downgrades a reversed refund',
    'reversed',
    status('R000002'),
    true,
    { kind: 'keep', outcome: 'ignored' },
  ],
];

describe('the decision on a report about a refund', () => {
  it.each(ROWS)('%s', (_rule, from, report, pastGiveUp, expected) => {
    expect(decideRefund(from, report, pastGiveUp)).toEqual(expected);
  });
});
