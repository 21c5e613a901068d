/**
 * Business days: a merchant's "today" and "1 November" are days in BUSINESS_TIME_ZONE
 * (Africa/Nairobi by default), whatever the server's own zone. Stored times are UTC instants.
 */

/** Whether the runtime knows this IANA time zone. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** One formatter per zone: building one costs far more than using it (the CSV export calls per row). */
const wallClocks = new Map<string, Intl.DateTimeFormat>();

function wallClock(timeZone: string): Intl.DateTimeFormat {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallClocks.set(timeZone, format);
  }
  return format;
}

/** Offsets already worked out, by zone and then quarter hour (the CSV export asks twice a row). */
const offsets = new Map<string, Map<number, number>>();
const QUARTER_HOUR = 900_000;

/**
 * How far the zone's wall clock is ahead of UTC at `instant`, in ms. A quarter hour whose first
 * and last seconds have the same offset has it throughout (offsets never change twice in so
 * short a time), and is remembered.
 */
function offsetMs(instant: number, timeZone: string): number {
  let zone = offsets.get(timeZone);
  if (!zone) offsets.set(timeZone, (zone = new Map()));
  const quarter = Math.floor(instant / QUARTER_HOUR);
  const known = zone.get(quarter);
  if (known !== undefined) return known;
  const first = computeOffsetMs(quarter * QUARTER_HOUR, timeZone);
  const last = computeOffsetMs((quarter + 1) * QUARTER_HOUR - 1000, timeZone);
  if (first !== last) return computeOffsetMs(instant, timeZone);
  if (zone.size >= 100_000) zone.clear();
  zone.set(quarter, first);
  return first;
}

function computeOffsetMs(instant: number, timeZone: string): number {
  const parts = wallClock(timeZone).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The UTC instant at which business day `day` (YYYY-MM-DD) begins, as ISO 8601. */
export function startOfBusinessDay(day: string, timeZone: string): string {
  const midnightUtc = Date.parse(`${day}T00:00:00.000Z`);
  let instant = midnightUtc - offsetMs(midnightUtc, timeZone);
  // Once more, in case the offset changed between the two instants (daylight saving).
  instant = midnightUtc - offsetMs(instant, timeZone);
  // Where the clocks skip midnight (Havana in March) or pass it twice, the day begins at its
  // first instant: found by halving, where the two guesses above do not agree with the day.
  const reached = (at: number) => dayAt(at, timeZone) >= day;
  if (!reached(instant) || reached(instant - 1)) {
    let before = instant - 36 * 3_600_000;
    let within = instant + 36 * 3_600_000;
    while (within - before > 1) {
      const middle = Math.floor((before + within) / 2);
      if (reached(middle)) within = middle;
      else before = middle;
    }
    instant = within;
  }
  return new Date(instant).toISOString();
}

function dayAt(instant: number, timeZone: string): string {
  return isoInZone(new Date(instant).toISOString(), timeZone).slice(0, 10);
}

/** The business day before `day`. */
export function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** The business day after `day`. */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** Offsets written as ISO 8601 does (+03:00), by offset in ms. */
const offsetTexts = new Map<number, string>();

function offsetText(offset: number): string {
  let text = offsetTexts.get(offset);
  if (text === undefined) {
    const minutes = Math.abs(offset) / 60_000;
    const sign = offset < 0 ? '-' : '+';
    const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
    const mm = String(minutes % 60).padStart(2, '0');
    text = `${sign}${hh}:${mm}`;
    offsetTexts.set(offset, text);
  }
  return text;
}

/** An instant as ISO 8601 in the zone's wall time, with its offset: 2026-11-23T17:52:00+03:00. */
export function isoInZone(instant: string, timeZone: string): string {
  const time = Date.parse(instant);
  if (!Number.isFinite(time)) return instant;
  const offset = offsetMs(time, timeZone);
  // ISO 8601 offsets are whole minutes; the local mean times of before 1930 are not. Such an
  // instant is written in UTC.
  if (offset % 60_000 !== 0) return `${wallTimeText(Math.floor(time / 1000) * 1000)}Z`;
  return wallTimeText(Math.floor(time / 1000) * 1000 + offset) + offsetText(offset);
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
/** The last day written, kept: times come in runs on the same day (a CSV export is in order). */
let lastDay = NaN;
let lastDayText = '';

/** A whole-second wall time (ms since the epoch, as if UTC) as 2026-11-23T17:52:09. */
function wallTimeText(wall: number): string {
  const day = Math.floor(wall / 86_400_000);
  if (day !== lastDay) {
    lastDayText = new Date(day * 86_400_000).toISOString().slice(0, 11);
    lastDay = day;
  }
  const seconds = (wall - day * 86_400_000) / 1000;
  return `${lastDayText}${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`;
}

/** The business day an instant falls on (YYYY-MM-DD). */
export function businessDayOf(instant: Date, timeZone: string): string {
  return isoInZone(instant.toISOString(), timeZone).slice(0, 10);
}
