import { describe, expect, it } from 'vitest';
import {
  isClientValidPhone,
  localPhoneNumber,
  maskPhone,
  normaliseKenyanPhone,
  recognisablePhone,
} from './phone.ts';

describe('the browser phone check (docs/product.md §5)', () => {
  it.each([
    '0712345678',
    '07123456789',
    '254712345678',
    '+254712345678',
    '0112345678',
    '+112345678',
    // As people write them: spaces, dashes, dots and brackets are taken out first.
    '0712 345 678',
    '+254 712 345 678',
    '0712-345-678',
    '(0712) 345.678',
    ' 0712345678 ',
  ])('accepts %j', (phone) => {
    expect(isClientValidPhone(phone)).toBe(true);
  });

  it.each(['', '712345678', '07123456', '+2547123456789', '0712/345/678', 'phone', '+44712345678'])(
    'refuses %j',
    (phone) => {
      expect(isClientValidPhone(phone)).toBe(false);
    },
  );
});

describe('normaliseKenyanPhone', () => {
  it.each([
    ['0712345678', '254712345678'],
    ['0112345678', '254112345678'],
    ['712345678', '254712345678'],
    ['112345678', '254112345678'],
    ['254712345678', '254712345678'],
    ['254112345678', '254112345678'],
    ['+254712345678', '254712345678'],
    ['+254 712 345 678', '254712345678'],
    ['0712-345-678', '254712345678'],
    ['(0712) 345.678', '254712345678'],
    [' 0712345678 ', '254712345678'],
  ])('%j → %s', (input, expected) => {
    expect(normaliseKenyanPhone(input)).toBe(expected);
  });

  it.each([
    '',
    '0812345678',
    '071234567',
    '07123456789',
    '2547123456789',
    '+1712345678',
    '+44712345678',
    '0712345678x',
    '٠٧١٢٣٤٥٦٧٨',
    '0'.repeat(10_000),
  ])('refuses %j', (input) => {
    expect(normaliseKenyanPhone(input)).toBeNull();
  });
});

describe('maskPhone', () => {
  it('keeps only the country code and the last four digits', () => {
    expect(maskPhone('254712345678')).toBe('2547****5678');
  });
});

describe('localPhoneNumber', () => {
  it('writes a stored number as a payer does, which the form’s check accepts', () => {
    expect(localPhoneNumber('254712345678')).toBe('0712345678');
    expect(localPhoneNumber('254112345678')).toBe('0112345678');
    expect(isClientValidPhone(localPhoneNumber('254700001032'))).toBe(true);
  });

  it('leaves anything else as it is', () => {
    expect(localPhoneNumber('0712345678')).toBe('0712345678');
    expect(localPhoneNumber('25471234567')).toBe('25471234567');
  });
});

describe('recognisablePhone', () => {
  it.each([
    ['254712345678', '0712 ••• 678'],
    ['254110000001', '0110 ••• 001'],
    // Masked in storage (PHONE_RETENTION_DAYS): shown as stored, never unmasked.
    ['254*****5678', '254*****5678'],
  ])('shows %s as %s', (stored, shown) => {
    expect(recognisablePhone(stored)).toBe(shown);
    expect(shown).not.toMatch(/[0-9]{5}/);
  });
});
