import { describe, expect, it } from 'vitest';
import { initiatePaymentSchema } from './contract.ts';

const firstMessage = (body: unknown) => {
  const result = initiatePaymentSchema.safeParse(body);
  return result.success ? null : result.error.issues[0]?.message;
};

describe('the initiate-payment body', () => {
  it('normalises the phone, takes the amount as a number or as text, and fills the defaults', () => {
    expect(initiatePaymentSchema.parse({ phoneNumber: '0712 345 678', amount: '150' })).toEqual({
      phoneNumber: '254712345678',
      amount: 150,
      reference: 'Payment',
      description: 'Payment for services',
    });
    expect(
      initiatePaymentSchema.parse({
        phoneNumber: '+254112345678',
        amount: 1,
        reference: '  ',
        description: '',
      }),
    ).toMatchObject({ amount: 1, reference: 'Payment', description: 'Payment for services' });
  });

  it('keeps the full reference and description', () => {
    const long = 'Invoice 2026/11 for the school fees of Wanjiku';
    expect(
      initiatePaymentSchema.parse({
        phoneNumber: '0712345678',
        amount: 10,
        reference: long,
        description: long,
      }),
    ).toMatchObject({ reference: long, description: long });
  });

  it('checks the phone first, then the amount', () => {
    expect(firstMessage({ phoneNumber: '12', amount: 0 })).toBe(
      'Please enter a valid Kenyan phone number',
    );
    expect(firstMessage({ phoneNumber: '0712345678', amount: 0 })).toBe(
      'Amount must be at least 1 KES',
    );
  });

  it.each([
    [undefined, 'Please enter an amount'],
    ['', 'Amount must be a number'],
    ['abc', 'Amount must be a number'],
    ['0x10', 'Amount must be a number'],
    ['12 KES', 'Amount must be a number'],
    [true, 'Amount must be a number'],
    [Number.NaN, 'Amount must be a number'],
    [0, 'Amount must be at least 1 KES'],
    [-5, 'Amount must be at least 1 KES'],
    ['0.5', 'Amount must be at least 1 KES'],
    [10.5, 'Amount must be a whole number of shillings'],
    [250_001, 'Amount must not be more than 250,000 KES'],
  ])('refuses the amount %j with %j', (amount, message) => {
    expect(firstMessage({ phoneNumber: '0712345678', amount })).toBe(message);
  });

  it.each([0, -5, -0.5, 0.5, 10.5, 250_001, 1e21])(
    'judges the amount %j sent as text by the same rules as the number',
    (amount) => {
      const asNumber = firstMessage({ phoneNumber: '0712345678', amount });
      expect(asNumber).not.toBeNull();
      expect(firstMessage({ phoneNumber: '0712345678', amount: String(amount) })).toBe(asNumber);
    },
  );

  it('reads every way a number input writes a number', () => {
    for (const [text, amount] of [
      ['150', 150],
      [' 150 ', 150],
      ['150.00', 150],
      ['1e3', 1000],
      ['2.5E2', 250],
      ['007', 7],
    ] as const) {
      expect(initiatePaymentSchema.parse({ phoneNumber: '0712345678', amount: text }).amount).toBe(
        amount,
      );
    }
    expect(firstMessage({ phoneNumber: '0712345678', amount: '-5' })).toBe(
      'Amount must be at least 1 KES',
    );
  });

  it('accepts the limits themselves', () => {
    expect(initiatePaymentSchema.parse({ phoneNumber: '0712345678', amount: 250_000 }).amount).toBe(
      250_000,
    );
    expect(initiatePaymentSchema.parse({ phoneNumber: '0712345678', amount: '1.00' }).amount).toBe(
      1,
    );
  });

  it('refuses bodies that are not objects and text that is too long or not text', () => {
    expect(firstMessage(null)).toBe('The request body must be a JSON object');
    expect(firstMessage([1])).toBe('The request body must be a JSON object');
    expect(firstMessage({ phoneNumber: '0712345678', amount: 1, reference: 'x'.repeat(101) })).toBe(
      'Reference must be at most 100 characters',
    );
    expect(firstMessage({ phoneNumber: '0712345678', amount: 1, description: { $ne: 1 } })).toBe(
      'Description must be text',
    );
  });

  it('strips control characters from free text', () => {
    expect(
      initiatePaymentSchema.parse({
        phoneNumber: '0712345678',
        amount: 1,
        reference: 'A\u0000B\nC',
      }).reference,
    ).toBe('A B C');
  });
});
