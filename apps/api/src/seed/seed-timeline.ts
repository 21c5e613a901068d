/**
 * When the seeded payments happen: a shop's day in East Africa Time (quiet at night, busy at lunch
 * and after work), busier Fridays and Saturdays, a lift around month-end pay days, and a shop that
 * grew a little over the window. Times are drawn oldest first and in order, so nothing but the
 * last time is remembered however many payments there are, and indexes on time fill in order.
 */
import { permute46, type Random } from './seed-random.ts';

const HOUR_MS = 3_600_000;
const EAT_OFFSET_MS = 3 * HOUR_MS;

/** Relative busyness of each EAT hour, 00:00 to 23:00. */
const BY_HOUR = [
  0.15, 0.08, 0.05, 0.04, 0.05, 0.15, 0.5, 1.2, 2, 2.4, 2.6, 2.9, 3.3, 3.2, 2.8, 2.6, 2.8, 3.2, 3.6,
  3.4, 2.6, 1.7, 0.9, 0.4,
];
/** Sunday to Saturday. */
const BY_WEEKDAY = [0.8, 1, 0.95, 0.95, 1, 1.15, 1.25];
const PAY_DAYS = 1.15;
/** Busyness at the start of the window, relative to its end. */
const GROWTH_FROM = 0.8;

export class Timeline {
  readonly start: number;
  readonly end: number;
  /** Hour buckets: where each begins, and the share of all payments up to its beginning. */
  readonly #begins: Float64Array;
  readonly #shares: Float64Array;
  readonly #random: Random;
  #left: number;
  #position = 0;
  #last: number;

  /** `count` payment times in (start, end], the window of `days` days that ends at `end`. */
  constructor(end: number, days: number, count: number, random: Random) {
    this.end = end;
    this.start = end - days * 24 * HOUR_MS;
    this.#random = random;
    this.#left = count;
    this.#last = this.start;
    const begins = [this.start];
    for (let at = Math.floor(this.start / HOUR_MS + 1) * HOUR_MS; at < end; at += HOUR_MS) {
      begins.push(at);
    }
    begins.push(end);
    this.#begins = Float64Array.from(begins);
    this.#shares = new Float64Array(begins.length);
    for (let i = 1; i < begins.length; i++) {
      const from = begins[i - 1]!;
      this.#shares[i] = this.#shares[i - 1]! + (begins[i]! - from) * this.#busyness(from);
    }
    const total = this.#shares[begins.length - 1]!;
    for (let i = 1; i < begins.length; i++) this.#shares[i]! /= total;
  }

  #busyness(at: number): number {
    const eat = new Date(at + EAT_OFFSET_MS);
    const day = eat.getUTCDate();
    const payDay = day >= 28 || day <= 3 ? PAY_DAYS : 1;
    const growth = GROWTH_FROM + (1 - GROWTH_FROM) * ((at - this.start) / (this.end - this.start));
    return BY_HOUR[eat.getUTCHours()]! * BY_WEEKDAY[eat.getUTCDay()]! * payDay * growth;
  }

  /**
   * The next payment time, from the oldest: the smallest of k uniform values in (p, 1) is
   * 1 - (1 - p)·U^(1/k), so the sorted sample comes one value at a time. Each time is at least a
   * millisecond after the last, so times (and the CheckoutRequestIDs made from them) never repeat;
   * the window holds far more milliseconds than the largest count, so this moves a time by a
   * millisecond now and then.
   */
  next(): number {
    if (this.#left <= 0) throw new RangeError('every payment time has been drawn');
    this.#position = 1 - (1 - this.#position) * (1 - this.#random.float()) ** (1 / this.#left);
    this.#left--;
    const at = Math.floor(this.#at(this.#position));
    this.#last = Math.max(at, this.#last + 1);
    return this.#last;
  }

  /** The time below which a share `share` of all payments fall. */
  #at(share: number): number {
    let low = 0;
    let high = this.#shares.length - 1;
    while (high - low > 1) {
      const middle = (low + high) >>> 1;
      if (this.#shares[middle]! <= share) low = middle;
      else high = middle;
    }
    const from = this.#shares[low]!;
    const to = this.#shares[high]!;
    const begin = this.#begins[low]!;
    return begin + ((share - from) / (to - from)) * (this.#begins[high]! - begin);
  }
}

const DAY_MS = 24 * HOUR_MS;
const two = (value: number) => (value < 10 ? `0${value}` : String(value));
const three = (value: number) =>
  value < 10 ? `00${value}` : value < 100 ? `0${value}` : String(value);
let cachedDay = NaN;
let cachedDate = '';

/**
 * `new Date(at).toISOString()`, several times faster: seeding formats millions of times, mostly on
 * the same day as the time before, so the date part is kept.
 */
export function isoTime(at: number): string {
  const day = Math.floor(at / DAY_MS);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDate = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  const ms = at - day * DAY_MS;
  const seconds = Math.floor(ms / 1000);
  return `${cachedDate}${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}.${three(ms % 1000)}Z`;
}

/** 2026-11-22T13:29:25.524Z → { date: "20261122162925", millis: "524" } in EAT. */
export function eatDigits(at: number): { date: string; millis: string } {
  const iso = isoTime(at + EAT_OFFSET_MS);
  return {
    date:
      iso.slice(0, 4) +
      iso.slice(5, 7) +
      iso.slice(8, 10) +
      iso.slice(11, 13) +
      iso.slice(14, 16) +
      iso.slice(17, 19),
    millis: iso.slice(20, 23),
  };
}

/** Shaped like the app's sortable event ids: the time, a counter, then randomness. */
export function eventId(at: number, ids: Random): string {
  return `${at.toString(16).padStart(12, '0')}000000${ids.hex(16)}`;
}

/**
 * 10 uppercase letters and digits; the first advances with the year (U = 2026), the other nine
 * are the payment's number shuffled, so no two payments of one run share a receipt.
 */
export function receiptFor(at: number, index: number, keys: readonly number[]): string {
  const year = new Date(at + 3 * 3_600_000).getUTCFullYear();
  const letter = String.fromCharCode(65 + ((((year - 2006) % 26) + 26) % 26));
  return letter + permute46(index, keys).toString(36).toUpperCase().padStart(9, '0');
}
