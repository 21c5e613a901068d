import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration.ts';

describe('formatDuration', () => {
  it.each([
    [1, '1 second'],
    [45, '45 seconds'],
    [60, '1 minute'],
    [90, '90 seconds'],
    [600, '10 minutes'],
    [3600, '1 hour'],
    [7200, '2 hours'],
    [5400, '90 minutes'],
  ])('says %i seconds as "%s"', (seconds, words) => {
    expect(formatDuration(seconds)).toBe(words);
  });
});
