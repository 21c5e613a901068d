/** What the virtual phone's M-PESA menu tells the payer (public/pay-outcome.js). */
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain browser JavaScript, with no types of its own
import { later, paymentOutcome, routeRefusal } from './public/pay-outcome.js';

const money = (amount: number) => `Ksh${amount.toFixed(2)}`;

/** A payment as POST /_sim/c2b/pay and the event stream show it (operations/c2b/c2b-kept.ts). */
const payment = (change: Record<string, unknown> = {}) => ({
  transId: 'UKR1A2B3C4',
  shortcode: '600984',
  commandId: 'CustomerPayBillOnline',
  amount: 1000,
  billRefNumber: 'INV-7',
  stage: 'completed',
  validation: { state: null, resultCode: null, decidedBy: null },
  reason: null,
  ...change,
});

describe('the menu’s outcome of a payment', () => {
  it('tells a paybill paid, with its account, and a till paid, without', () => {
    expect(paymentOutcome(payment({ stage: 'confirming' }), money)).toEqual({
      kind: 'paid',
      text: "Paid Ksh10.00 to business 600984 for account INV-7. M-PESA's message is in Messages.",
    });
    const till = payment({ commandId: 'CustomerBuyGoodsOnline', billRefNumber: '' });
    expect(paymentOutcome(till, money).text).toBe(
      "Paid Ksh10.00 to till 600984. M-PESA's message is in Messages.",
    );
  });

  it('waits while the merchant validates', () => {
    expect(paymentOutcome(payment({ stage: 'validating' }), money)).toEqual({
      kind: 'waiting',
      text: 'Sent. Waiting for business 600984 to accept Ksh10.00…',
    });
  });

  it('tells a wallet too poor, or past its daily limit, in the payer’s words', () => {
    const poor = payment({
      stage: 'failed',
      reason: 'The wallet of 254705912645 holds KES 0.00: KES 10.00 is needed.',
    });
    expect(paymentOutcome(poor, money)).toEqual({
      kind: 'refused',
      text: 'Failed: Ksh10.00 to business 600984 was not paid. You do not have enough money in M-PESA.',
      detail: 'The wallet of 254705912645 holds KES 0.00: KES 10.00 is needed.',
    });
    const limit = payment({ stage: 'failed', reason: '… would pass the daily limit of KES …' });
    expect(paymentOutcome(limit, money).text).toMatch(/past your daily M-PESA limit\.$/);
  });

  it('tells the merchant’s rejection by its code, and ResponseType’s cancellation', () => {
    const rejected = (resultCode: string) =>
      paymentOutcome(
        payment({
          stage: 'cancelled',
          validation: { state: 'delivered', resultCode, decidedBy: 'merchant' },
        }),
        money,
      ).text;
    expect(rejected('C2B00012')).toBe(
      'Failed: Ksh10.00 to business 600984 was not paid. Business 600984 did not accept account number INV-7.',
    );
    expect(rejected('C2B00013')).toMatch(/Business 600984 did not accept that amount\.$/);
    expect(rejected('X9')).toMatch(/Business 600984 declined it\.$/);
    const silent = payment({
      stage: 'cancelled',
      validation: { state: 'failed', resultCode: null, decidedBy: 'response-type' },
    });
    expect(paymentOutcome(silent, money).text).toMatch(
      /Business 600984 did not answer in time, so M-PESA cancelled it\.$/,
    );
  });

  it('keeps the later of two views of a payment', () => {
    const early = payment({ stage: 'validating' });
    const done = payment({ stage: 'cancelled' });
    expect(later(early, done)).toBe(done);
    expect(later(done, early)).toBe(done);
    expect(later(undefined, early)).toBe(early);
  });
});

describe('the menu’s outcome of a refused request', () => {
  it('asks for the PIN again after a wrong one', () => {
    expect(routeRefusal({ error: 'Wrong PIN: nothing was paid' })).toEqual({
      kind: 'refused',
      pinWrong: true,
      text: 'Wrong PIN: nothing was paid. Try again.',
    });
  });

  it('gives any other refusal with the simulator’s words', () => {
    expect(routeRefusal({ error: 'body/amount amount must be whole shillings' })).toEqual({
      kind: 'refused',
      text: 'M-PESA could not send this: nothing was paid.',
      detail: 'body/amount amount must be whole shillings',
    });
  });
});
