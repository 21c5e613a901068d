import { describe, expect, it } from 'vitest';
import { formatCompact, formatNumber } from './format';

describe('figures for a chart’s axis', () => {
  it('are short in English', () => {
    expect([1500, 292_163, 1_500_000].map((n) => formatCompact(n))).toEqual([
      '1.5K',
      '292.2K',
      '1.5M',
    ]);
  });

  it('are words a Kiswahili reader reads, thousands and millions alike', () => {
    expect([1500, 292_163, 1_500_000, 25_000_000].map((n) => formatCompact(n, 'sw'))).toEqual([
      'elfu\u00a01.5',
      'elfu\u00a0292.2',
      'milioni\u00a01.5',
      'milioni\u00a025',
    ]);
  });

  it('group whole amounts as M-PESA writes them', () => {
    expect(formatNumber(292_163)).toBe('292,163');
    expect(formatNumber(292_163, 'sw')).toBe('292,163');
  });
});
