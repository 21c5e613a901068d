/** The refund rules, as a table: the payment and its refund, and what may be done. */
import { describe, expect, it } from 'vitest';
import type { RefundBlock } from '@mpesa/shared/contract';
import type { RefundRow } from '../../db/schema.ts';
import { refundBlock, refundView, type RefundablePayment } from './refund-rules.ts';

const NOW = new Date('2026-11-27T12:00:00.000Z');
const POLICY = { maxAgeDays: 30, canReverse: true };

const paid = (overrides: Partial<RefundablePayment> = {}): RefundablePayment => ({
  status: 'success',
  flagged_reason: null,
  transaction_date: '2026-11-26T12:00:00.000Z',
  created_at: '2026-11-26T11:59:00.000Z',
  mpesa_receipt_number: 'UK2PAID001',
  ...overrides,
});

const ROWS: [string, RefundablePayment, RefundRow['status'] | null, boolean, RefundBlock | null][] =
  [
    ['a paid payment may be refunded', paid(), null, true, null],
    ['a pending one is not paid', paid({ status: 'pending' }), null, true, 'not_paid'],
    ['a cancelled one is not paid', paid({ status: 'cancelled' }), null, true, 'not_paid'],
    ['an unknown outcome is not paid', paid({ status: 'unknown' }), null, true, 'not_paid'],
    [
      'a success with no receipt yet cannot be named to M-PESA',
      paid({ mpesa_receipt_number: null }),
      null,
      true,
      'not_paid',
    ],
    [
      'a flagged one waits for review',
      paid({ flagged_reason: 'two receipts' }),
      null,
      true,
      'flagged',
    ],
    [
      'one paid 31 days ago is too old',
      paid({ transaction_date: '2026-10-27T11:59:00.000Z' }),
      null,
      true,
      'too_old',
    ],
    [
      'its age is from when it was paid, not saved',
      paid({
        transaction_date: '2026-10-28T12:00:00.000Z',
        created_at: '2026-10-01T00:00:00.000Z',
      }),
      null,
      true,
      null,
    ],
    [
      'with no TransactionDate, from when it was saved',
      paid({ transaction_date: null, created_at: '2026-10-20T00:00:00.000Z' }),
      null,
      true,
      'too_old',
    ],
    ['without an initiator, not set up', paid(), null, false, 'not_set_up'],
    ['a refund requested already exists', paid(), 'requested', true, 'exists'],
    ['a refund reversed already exists', paid({ status: 'refunded' }), 'reversed', true, 'exists'],
    ['a failed refund may be asked for again', paid(), 'failed', true, null],
    [
      'a refunded payment says exists before not paid',
      paid({ status: 'refunded' }),
      null,
      true,
      'exists',
    ],
  ];

describe('whether a payment may be refunded', () => {
  it.each(ROWS)('%s', (_rule, payment, refund, canReverse, expected) => {
    const found = refund === null ? undefined : { status: refund };
    expect(refundBlock(payment, found, { ...POLICY, canReverse }, NOW)).toBe(expected);
  });
});

const refundRow = (status: RefundRow['status']): RefundRow => ({
  id: 'r-1',
  transaction_id: 'tx-1',
  status,
  amount: 100,
  reason: 'Returned goods',
  requested_by: 'Amina',
  requested_by_id: 'op-1',
  originator_conversation_id: null,
  conversation_id: null,
  status_query_id: null,
  result_code: null,
  result_description: null,
  reversal_receipt: status === 'reversed' ? 'UK2REV0001' : null,
  created_at: '2026-11-27T11:00:00.000Z',
  updated_at: '2026-11-27T11:00:00.000Z',
  next_check_at: null,
  check_attempts: 0,
  lease_until: null,
  lease_owner: null,
});

describe('what the merchant’s view says of refunds', () => {
  it('lets an owner refund a paid payment, and tells a cashier nothing', () => {
    expect(refundView(paid(), undefined, POLICY, { owner: true }, NOW)).toEqual({
      refund: null,
      mayRefund: true,
      refundBlockedBy: null,
    });
    expect(refundView(paid(), undefined, POLICY, { owner: false }, NOW)).toEqual({
      refund: null,
      mayRefund: false,
      refundBlockedBy: null,
    });
  });

  it('tells an owner why not, and nothing once the money went back', () => {
    const flagged = paid({ flagged_reason: 'two receipts' });
    expect(refundView(flagged, undefined, POLICY, { owner: true }, NOW)).toMatchObject({
      mayRefund: false,
      refundBlockedBy: 'flagged',
    });
    const refunded = refundView(
      paid({ status: 'refunded' }),
      refundRow('reversed'),
      POLICY,
      { owner: true },
      NOW,
    );
    expect(refunded).toMatchObject({ mayRefund: false, refundBlockedBy: null });
    expect(refunded.refund).toMatchObject({ status: 'reversed', reversalReceipt: 'UK2REV0001' });
  });

  it('offers a failed refund again to an owner', () => {
    expect(refundView(paid(), refundRow('failed'), POLICY, { owner: true }, NOW)).toMatchObject({
      refund: { status: 'failed' },
      mayRefund: true,
      refundBlockedBy: null,
    });
  });
});
