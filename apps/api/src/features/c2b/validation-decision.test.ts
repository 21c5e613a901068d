/** The C2B validation verdict (docs/daraja-protocol.md §M3.4), as a table. */
import { describe, expect, it } from 'vitest';
import type { C2bPayment } from './c2b-body.ts';
import { decideValidation, undecided, type C2bSettings } from './validation-decision.ts';

const settings = (validation: C2bSettings['validation']): C2bSettings => ({
  shortcode: '600100',
  version: 'v2',
  validation,
  responseType: 'Completed',
  register: 'start',
  minAmount: 10,
  maxAmount: 1000,
});

const payment = (fields: Partial<C2bPayment> = {}): C2bPayment => ({
  channel: 'paybill',
  receipt: 'UKQ1ABCDEF',
  amount: 100,
  shortcode: '600100',
  reference: 'INV-1',
  transactionDate: null,
  payerName: null,
  payerMsisdn: null,
  ...fields,
});

describe('the C2B validation verdict', () => {
  it.each([
    ['off', payment({ amount: 999_999 }), undefined, '0'],
    ['off', payment({ shortcode: '999999' }), undefined, '0'],
    ['amount', payment(), undefined, '0'],
    ['amount', payment({ amount: 9 }), undefined, 'C2B00013'],
    ['amount', payment({ amount: 10 }), undefined, '0'],
    ['amount', payment({ amount: 1000 }), undefined, '0'],
    ['amount', payment({ amount: 1001 }), undefined, 'C2B00013'],
    ['amount', payment({ reference: 'nobody' }), undefined, '0'],
    ['amount', payment({ shortcode: '999999' }), undefined, 'C2B00015'],
    ['invoice', payment(), true, '0'],
    ['invoice', payment(), false, 'C2B00012'],
    ['invoice', payment({ amount: 5000 }), true, 'C2B00013'],
    ['invoice', payment({ channel: 'till', reference: '' }), undefined, '0'],
  ] as const)('%s validation of %j (open invoice: %s) answers %s', (mode, paid, open, code) => {
    const answer = decideValidation(settings(mode), paid, open);
    expect(answer).toEqual({
      ResultCode: code,
      ResultDesc: code === '0' ? 'Accepted' : 'Rejected',
    });
  });

  it('answers what the registered ResponseType would do when it cannot decide', () => {
    expect(undecided({ responseType: 'Completed' })).toEqual({
      ResultCode: '0',
      ResultDesc: 'Accepted',
    });
    expect(undecided({ responseType: 'Cancelled' })).toEqual({
      ResultCode: 'C2B00016',
      ResultDesc: 'Rejected',
    });
  });
});
