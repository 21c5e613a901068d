/** readBalance and eatTime as tables: Daraja's balance string as the docs and the captures have it. */
import { describe, expect, it } from 'vitest';
import { eatTime, readBalance } from './read-balance.ts';

describe('readBalance', () => {
  it('reads the docs’ sample, negatives and all, in cents', () => {
    const { accounts, unread } = readBalance(
      'Working Account|KES|700000.00|700000.00|0.00|0.00&Float Account|KES|0.00|0.00|0.00|0.00&Utility Account|KES|228037.00|228037.00|0.00|0.00&Charges Paid Account|KES|-1540.00|-1540.00|0.00|0.00&Organization Settlement Account|KES|0.00|0.00|0.00|0.00',
    );
    expect(unread).toEqual([]);
    expect(accounts.map((each) => [each.name, each.available])).toEqual([
      ['Working Account', 70_000_000],
      ['Float Account', 0],
      ['Utility Account', 22_803_700],
      ['Charges Paid Account', -154_000],
      ['Organization Settlement Account', 0],
    ]);
  });

  it.each([
    ['a part with no amounts', 'Working Account|KES', 0, 1],
    ['an amount that is not one', 'Working Account|KES|lots|0|0|0', 0, 1],
    ['a till’s one account', 'Merchant Account|KES|12.5|12.5|0.00|0.00', 1, 0],
    ['empty', '', 0, 0],
    ['a trailing &', 'Utility Account|KES|1.00|1.00|0.00|0.00&', 1, 0],
  ])('%s', (_case, value, read, unread) => {
    const result = readBalance(value);
    expect([result.accounts.length, result.unread.length]).toEqual([read, unread]);
  });
});

describe('eatTime', () => {
  it.each([
    ['20200109125710', '2020-01-09T09:57:10.000Z'],
    ['2020010912571', null],
    [null, null],
  ])('%s → %s', (text, iso) => expect(eatTime(text)).toBe(iso));
});
