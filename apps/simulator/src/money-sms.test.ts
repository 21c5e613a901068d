/** The virtual phone's messages for money moved by the APIs after STK push (public/money-sms.js). */
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain browser JavaScript, with no types of its own
import { smsForTransaction } from './public/money-sms.js';

const money = (amount: string) => `Ksh${Number(amount).toFixed(2)}`;
const AT = '2026-11-27T07:48:52.000Z'; // 10:48 AM in Nairobi

const payout = {
  receipt: 'UKR1A2B3C4',
  kind: 'b2c',
  amount: '100.00',
  charges: '0.00',
  debit: { shortcode: '600992', account: 'Utility Account' },
  credit: { msisdn: '254708374149' },
  debitName: 'Safaricom Daraja 992',
  creditName: 'John Doe',
  reference: null,
  at: AT,
};

describe('the phone’s message for a transaction', () => {
  it('tells the customer a B2C payout received, by the business’s name', () => {
    const sms = smsForTransaction(payout, '254708374149', money);
    expect(sms.msisdn).toBe('254708374149');
    expect(sms.text).toMatch(
      /^UKR1A2B3C4 Confirmed\. You have received Ksh100\.00 from Safaricom Daraja 992 on \d+\/\d+\/26 at \d+:\d\d [AP]M\.$/,
    );
  });

  it('tells the payer of a paybill its account and cost', () => {
    const paid = {
      ...payout,
      kind: 'c2b',
      debit: { msisdn: '254705912645' },
      credit: { shortcode: '600984', account: 'Utility Account' },
      debitName: 'NICHOLAS JOHN SONGOK',
      creditName: 'Sandbox Test Merchant',
      reference: 'INV-7',
    };
    expect(smsForTransaction(paid, '', money).text).toMatch(
      /^UKR1A2B3C4 Confirmed\. Ksh100\.00 sent to Sandbox Test Merchant for account INV-7 on .* Transaction cost, Ksh0\.00\.$/,
    );
  });

  it('says nothing to another number', () => {
    expect(smsForTransaction(payout, '254711222333', money)).toBeNull();
  });
});

describe('the phone’s message for a reversal', () => {
  const reversal = {
    ...payout,
    receipt: 'UKR9Z8Y7X6',
    kind: 'reversal',
    reverses: 'UKR1A2B3C4',
  };

  it('tells a customer paid back that the original transaction was reversed, and credited', () => {
    const back = {
      ...reversal,
      debit: { shortcode: '600992', account: 'Utility Account' },
      credit: { msisdn: '254708374149' },
    };
    expect(smsForTransaction(back, '254708374149', money).text).toMatch(
      /^UKR9Z8Y7X6 Confirmed\. Transaction UKR1A2B3C4 has been reversed\. Ksh100\.00 is credited to your M-PESA account on \d+\/\d+\/26 at \d+:\d\d [AP]M\.$/,
    );
  });

  it('tells a customer whose payout is taken back that it is debited, with no transaction cost', () => {
    const out = {
      ...reversal,
      debit: { msisdn: '254708374149' },
      credit: { shortcode: '600992', account: 'Utility Account' },
      debitName: 'John Doe',
      creditName: 'Safaricom Daraja 992',
    };
    const sms = smsForTransaction(out, '254708374149', money);
    expect(sms.msisdn).toBe('254708374149');
    expect(sms.text).toMatch(
      /^UKR9Z8Y7X6 Confirmed\. Transaction UKR1A2B3C4 has been reversed\. Ksh100\.00 is debited from your M-PESA account on .* at .*\.$/,
    );
  });
});
