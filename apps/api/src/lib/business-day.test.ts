import { describe, expect, it } from 'vitest';
import {
  businessDayOf,
  isTimeZone,
  isoInZone,
  nextDay,
  startOfBusinessDay,
} from './business-day.ts';

describe('business days', () => {
  it('begins a Nairobi day at 21:00 UTC the evening before', () => {
    expect(startOfBusinessDay('2026-11-01', 'Africa/Nairobi')).toBe('2026-10-31T21:00:00.000Z');
  });

  it('follows daylight saving where a zone has it', () => {
    expect(startOfBusinessDay('2026-07-01', 'Europe/London')).toBe('2026-06-30T23:00:00.000Z');
    expect(startOfBusinessDay('2026-12-01', 'Europe/London')).toBe('2026-12-01T00:00:00.000Z');
  });

  it('knows real zones only, and the day after across a month end', () => {
    expect(isTimeZone('Africa/Nairobi')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(nextDay('2026-02-28')).toBe('2026-03-01');
  });

  it('writes an instant in the zone with its offset, and knows its business day', () => {
    expect(isoInZone('2026-11-23T14:52:09.123Z', 'Africa/Nairobi')).toBe(
      '2026-11-23T17:52:09+03:00',
    );
    expect(isoInZone('2026-11-23T14:52:09.123Z', 'America/New_York')).toBe(
      '2026-11-23T09:52:09-05:00',
    );
    expect(businessDayOf(new Date('2026-10-31T21:00:00.000Z'), 'Africa/Nairobi')).toBe(
      '2026-11-01',
    );
  });

  it('gives every second around a change of offset its own offset, remembered or not', () => {
    // What Intl itself says the offset is, as the check.
    const offsetOf = (instant: number, timeZone: string) => {
      const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
        .formatToParts(new Date(instant))
        .find((part) => part.type === 'timeZoneName')!.value;
      return name === 'GMT' ? '+00:00' : name.slice(3);
    };
    const changes = [
      ['Europe/London', '2026-03-29T01:00:00.000Z'],
      ['Europe/London', '2026-10-25T01:00:00.000Z'],
      ['America/St_Johns', '2026-03-08T05:30:00.000Z'],
      ['Australia/Lord_Howe', '2026-04-04T15:00:00.000Z'],
    ] as const;
    for (const [zone, change] of changes) {
      for (let second = -1200; second <= 1200; second += 7) {
        const instant = Date.parse(change) + second * 1000;
        const written = isoInZone(new Date(instant).toISOString(), zone);
        expect(written.slice(19), `${zone} at ${new Date(instant).toISOString()}`).toBe(
          offsetOf(instant, zone),
        );
      }
    }
  });

  it('begins a day at its first instant where the clocks skip or repeat midnight', () => {
    // Havana moves from 00:00 to 01:00 on 8 March 2026, and back from 01:00 to 00:00 on 1 November.
    expect(startOfBusinessDay('2026-03-08', 'America/Havana')).toBe('2026-03-08T05:00:00.000Z');
    expect(businessDayOf(new Date('2026-03-08T04:30:00.000Z'), 'America/Havana')).toBe(
      '2026-03-07',
    );
    expect(startOfBusinessDay('2026-11-01', 'America/Havana')).toBe('2026-11-01T04:00:00.000Z');
    // Samoa skipped 30 December 2011: that day is empty, beginning where the next begins.
    expect(startOfBusinessDay('2011-12-30', 'Pacific/Apia')).toBe(
      startOfBusinessDay('2011-12-31', 'Pacific/Apia'),
    );
  });

  it('writes a time whose offset is not whole minutes (local mean time) in UTC', () => {
    expect(isoInZone('1908-01-01T12:00:00.000Z', 'Africa/Nairobi')).toBe('1908-01-01T12:00:00Z');
  });
});
