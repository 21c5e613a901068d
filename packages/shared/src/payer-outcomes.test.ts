import { describe, expect, it } from 'vitest';
import { TRANSACTION_STATUSES } from './constants.ts';
import { PAYER_SENTENCES, canTryAgain, payerSentence } from './payer-outcomes.ts';

describe('payerSentence', () => {
  it.each([
    ['failed', '2001', /PIN was wrong/],
    ['cancelled', '1032', /You cancelled the prompt/],
    ['failed', '1', /balance was too low/],
    ['timeout', '1037', /phone could not be reached/],
    ['timeout', '1019', /prompt on your phone expired/],
    ['failed', '17', /same amount was sent from this phone less than 2 minutes ago/],
  ] as const)('explains %s with code %s in plain words', (status, code, sentence) => {
    expect(payerSentence(status, code)).toMatch(sentence);
  });

  it('says nothing while the payment is pending: the specification’s text does', () => {
    expect(payerSentence('pending', null)).toBeNull();
  });

  it('falls back on the status when M-PESA gave no code, or one it does not know', () => {
    expect(payerSentence('failed', null)).toBe(
      'M-PESA did not complete this payment, so no money moved. You can try again.',
    );
    expect(payerSentence('failed', '4242')).toBe(payerSentence('failed', null));
    expect(payerSentence('timeout', null)).toMatch(/not answered in time/);
  });

  it('never explains a success with a failure’s code, nor a failure with success’s', () => {
    expect(payerSentence('success', '2001')).toBe(PAYER_SENTENCES['0']);
    expect(payerSentence('failed', '0')).toBe(payerSentence('failed', null));
  });

  it('tells a payer of an unknown outcome to check before paying again', () => {
    expect(payerSentence('unknown', null)).toMatch(
      /Check your M-PESA messages before paying again/,
    );
  });

  it('has a sentence for every status but pending, each a full sentence', () => {
    for (const status of TRANSACTION_STATUSES) {
      const sentence = payerSentence(status, null);
      if (status === 'pending') continue;
      expect(sentence, status).toMatch(/^[A-Z].*\.$/);
    }
    for (const [code, sentence] of Object.entries(PAYER_SENTENCES)) {
      expect(sentence, code).toMatch(/^[A-Z].*\.$/);
      expect(sentence, code).not.toMatch(/initiator|Rule limited|DS timeout/i);
    }
  });
});

describe('canTryAgain', () => {
  it('offers another try only where no money moved', () => {
    expect(TRANSACTION_STATUSES.filter(canTryAgain)).toEqual(['failed', 'cancelled', 'timeout']);
  });
});
