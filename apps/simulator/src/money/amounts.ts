/**
 * Money as the ledger holds it and as Daraja writes it. Inside, every amount is a whole number of
 * cents, so that no sum of shillings and cents is ever rounded; outside, Daraja writes shillings
 * with two decimals, as text (`"700000.00"`, `"-1540.00"`: docs/daraja-protocol.md §M6).
 */

/** A whole number of cents (KES 1 = 100). */
export type Cents = number;

const DECIMAL = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/**
 * Shillings (a number or Daraja's text, at most two decimals) as cents; undefined when the value
 * is not an amount, or has more than two decimals.
 */
export function toCents(shillings: number | string): Cents | undefined {
  const text = typeof shillings === 'number' ? numberText(shillings) : shillings.trim();
  const match = text === undefined ? null : DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = ''] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return undefined;
  return sign === '-' && cents !== 0 ? -cents : cents;
}

/** A number's decimal text, when it has one (not 1e21, not NaN); 0.1 + 0.2 reads "0.3". */
function numberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(Math.round(value * 100) / 100);
  // A number with a third decimal is refused, not rounded: 10.005 is not an amount.
  return Math.abs(value * 100 - Math.round(value * 100)) < 1e-6 && !/e/i.test(text)
    ? text
    : undefined;
}

/** Cents as Daraja writes an amount: shillings with two decimals, `"-1540.00"` when negative. */
export function darajaAmount(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.floor(Math.abs(cents) / 100);
  const fraction = String(Math.abs(cents) % 100).padStart(2, '0');
  return `${sign}${whole}.${fraction}`;
}
