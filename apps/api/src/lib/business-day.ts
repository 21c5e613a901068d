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

/** How far the zone's wall clock is ahead of UTC at `instant`, in ms. */
function offsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
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
  return new Date(instant).toISOString();
}

/** The business day after `day`. */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}
