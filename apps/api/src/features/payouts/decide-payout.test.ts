/** decide-payout.ts as a table: each status a payout can be in, and each report M-PESA can make. */
import { describe, expect, it } from 'vitest';
import { decidePayout, type PayoutReport, type PayoutSituation } from './decide-payout.ts';

const paid: PayoutReport = {
  kind: 'result',
  resultCode: '0',
  resultDesc: 'The service request is processed successfully.',
  receipt: 'UAB1C2D3E4',
  receiverName: '254708374149 - John Doe',
  chargeCents: null,
};
const short: PayoutReport = {
  kind: 'result',
  resultCode: '1',
  resultDesc: 'The balance is insufficient for the transaction.',
  receipt: null,
  receiverName: null,
  chargeCents: null,
};
const status = (
  resultCode: string,
  transactionStatus: string | null,
  chargeCents: number | null = 2240,
): PayoutReport => ({
  kind: 'status',
  resultCode,
  resultDesc: 'words',
  transactionStatus,
  receipt: 'UAB1C2D3E4',
  receiverName: '254708374149 - John Doe',
  chargeCents,
});
const at = (over: Partial<PayoutSituation>): PayoutSituation => ({
  status: 'sending',
  toPhone: true,
  chargeKnown: false,
  pastGiveUp: false,
  ...over,
});

describe('decidePayout', () => {
  it.each([
    ['a sending payout paid', at({}), paid, 'succeeded'],
    ['a sending payout refused', at({}), short, 'failed'],
    ['a sending payout completed by status', at({}), status('0', 'Completed'), 'succeeded'],
    ['a sending payout declined by status', at({}), status('0', 'Declined'), 'failed'],
    [
      'a phone payout M-PESA has no record of: sent again',
      at({}),
      status('R000002', null),
      'resend',
    ],
    [
      'a phone payout unknown past the give-up time: failed',
      at({ pastGiveUp: true }),
      status('R000002', null),
      'failed',
    ],
    [
      'a business payout unknown before the give-up: later',
      at({ toPhone: false }),
      status('R000002', null),
      'later',
    ],
    [
      'a business payout unknown past the give-up: failed',
      at({ toPhone: false, pastGiveUp: true }),
      status('R000002', null),
      'failed',
    ],
    ['a query that failed itself: later', at({}), status('2001', null), 'later'],
    ['a paid payout paid again', at({ status: 'succeeded', chargeKnown: true }), paid, 'keep'],
    ['a paid payout, then a failure: kept', at({ status: 'succeeded' }), short, 'keep'],
    [
      'a paid payout’s charge learnt',
      at({ status: 'succeeded' }),
      status('0', 'Completed'),
      'charge',
    ],
    [
      'a paid payout’s charge known already',
      at({ status: 'succeeded', chargeKnown: true }),
      status('0', 'Completed'),
      'keep',
    ],
    ['a failed payout found paid: lifted', at({ status: 'failed' }), paid, 'succeeded'],
    ['a failed payout failed again', at({ status: 'failed' }), short, 'keep'],
    ['a proposed payout: ignored', at({ status: 'proposed' }), paid, 'keep'],
    ['a declined payout: ignored', at({ status: 'declined' }), paid, 'keep'],
    [
      'an unknown business payout paid',
      at({ status: 'unknown', toPhone: false }),
      paid,
      'succeeded',
    ],
  ])('%s', (_case, situation, report, kind) => {
    expect(decidePayout(situation, report).kind).toBe(kind);
  });

  it('keeps the charge a status query gives with a success', () => {
    expect(decidePayout(at({}), status('0', 'Completed'))).toMatchObject({
      kind: 'succeeded',
      chargeCents: 2240,
      receipt: 'UAB1C2D3E4',
      receiverName: '254708374149 - John Doe',
    });
  });
});
