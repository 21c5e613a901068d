/**
 * How the payment APIs of the Result family (B2C, B2B) read their fields (docs/daraja-protocol.md
 * §M4.1, §M8.1, §M1.2): a number or a string of digits where Daraja says "Numeric", texts within
 * their lengths, an amount of whole shillings. Each check gives the value or null, and the route
 * answers null with `400.002.02 Bad Request - Invalid <Field>`, naming the field as Daraja spells
 * it: a key sent under another spelling is a missing field.
 */
import type { Fields } from '../../daraja/gate.ts';
import { isUrl } from '../stk/validation.ts';

/** A number or a string of digits (spaces around it taken), as text; null for anything else. */
export function digits(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return typeof value === 'string' && /^\s*[0-9]+\s*$/.test(value) ? value.trim() : null;
}

/**
 * Whole shillings, as a number or its text: `"10"`, `10`, `"10.00"`. Daraja's limits on the amount
 * (at least 10, at most 250,000 for B2C) come in the Result, not here (§M4.1); an amount that is
 * not a whole number of shillings, or not a number at all, is refused at once.
 */
export function wholeShillings(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  if (!/^\s*[0-9]{1,9}(\.0{1,2})?\s*$/.test(text)) return null;
  return Number(text);
}

/** Text of `min` to `max` characters (spaces around it count), or null. */
export function textWithin(value: unknown, min: number, max: number): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  return value.length >= min && value.length <= max ? value : null;
}

/** An http(s) URL, or null. */
export const url = (value: unknown): string | null => (isUrl(value) ? (value as string) : null);

/**
 * The occasion, optional, under either spelling (§M4.1: the docs write `Occassion`, clients send
 * `Occasion`, nothing shows either refused): undefined when absent, null when present and not text
 * of 1 to 100 characters. It is refused under the docs' spelling when both are wrong.
 */
export function occasion(body: Fields): string | null | undefined {
  // Empty or null counts as not sent, under either spelling, so that an empty `Occassion` does not
  // hide an `Occasion` that is wrong.
  const given = (value: unknown) => value !== undefined && value !== null && value !== '';
  const value = given(body.Occassion) ? body.Occassion : body.Occasion;
  if (!given(value)) return undefined;
  return textWithin(value, 1, 100);
}

export type Checked<T> = { ok: true; value: T } | { ok: false; field: string };

/** Reads the fields in order; the first that reads null is the one refused. */
export function readFields<T extends object>(readers: {
  [Field in keyof T]: [daraja: string, read: () => T[Field] | null];
}): Checked<T> {
  const value: Record<string, unknown> = {};
  for (const [name, [field, read]] of Object.entries(readers) as [
    string,
    [string, () => unknown],
  ][]) {
    const fieldValue = read();
    if (fieldValue === null) return { ok: false, field };
    value[name] = fieldValue;
  }
  return { ok: true, value: value as T };
}
