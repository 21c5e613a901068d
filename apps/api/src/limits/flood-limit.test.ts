import { describe, expect, it } from 'vitest';
import { floodLimit } from './flood-limit.ts';

describe('the flood limit', () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 23, 12, 0, 0) + seconds * 1000);

  it('lets `max` requests per address through in a window, then says how long until it ends', () => {
    const limit = floodLimit({ max: 3, windowS: 60 });
    expect([1, 2, 3].map((s) => limit.hit('203.0.113.7', at(s)))).toEqual([null, null, null]);
    expect(limit.hit('203.0.113.7', at(20))).toBe(40);
    expect(limit.hit('203.0.113.8', at(20))).toBeNull();
    // A new window starts the count again.
    expect(limit.hit('203.0.113.7', at(60))).toBeNull();
  });

  it('is off at 0', () => {
    const limit = floodLimit({ max: 0, windowS: 60 });
    for (let i = 0; i < 1000; i++) expect(limit.hit('203.0.113.7', at(1))).toBeNull();
  });

  it('keeps at most 100,000 addresses in a window, starting it again beyond that', () => {
    const limit = floodLimit({ max: 1, windowS: 60 });
    expect(limit.hit('first', at(1))).toBeNull();
    expect(limit.hit('first', at(1))).toBe(59);
    for (let i = 0; i < 100_000; i++) limit.hit(`address-${i}`, at(1));
    expect(limit.hit('first', at(2))).toBeNull();
  });
});
