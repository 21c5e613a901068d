/** PAYOUT_APPROVAL: when one owner's word is enough, read from the setting, and who it is for. */
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../test/test-app.ts';
import { approvedByProposer } from './payouts.service.ts';

/** Against Safaricom's sandbox, with what it needs. */
const SANDBOX = {
  MPESA_ENV: 'sandbox',
  MPESA_CONSUMER_KEY: 'key',
  MPESA_CONSUMER_SECRET: 'secret',
  MPESA_CALLBACK_URL: 'https://shop.example',
};

const settingsOf = (value?: string, env: Record<string, string> = SANDBOX) =>
  testConfig({ ...env, ...(value === undefined ? {} : { PAYOUT_APPROVAL: value }) }).payouts;

describe('PAYOUT_APPROVAL', () => {
  it.each([
    [undefined, 'owner', 10, false],
    ['always', 'owner', 10, false],
    ['off', 'owner', 250_000, true],
    ['off', 'cashier', 10, false],
    ['5000', 'owner', 4999, true],
    ['5000', 'owner', 5000, false],
    ['5000', 'cashier', 100, false],
    ['5000', 'viewer', 100, false],
  ] as const)('%s: an %s’s own %i KES is sent at once: %s', (value, role, amount, sent) => {
    expect(approvedByProposer(settingsOf(value), role, amount)).toBe(sent);
  });

  it('is off on the simulator unless set, so that one owner pays out with `npm start`', () => {
    const simulator = { MPESA_ENV: 'simulator' };
    expect(approvedByProposer(settingsOf(undefined, simulator), 'owner', 250_000)).toBe(true);
    expect(approvedByProposer(settingsOf(undefined, simulator), 'cashier', 10)).toBe(false);
    expect(approvedByProposer(settingsOf('always', simulator), 'owner', 10)).toBe(false);
  });

  it.each(['never', '-1', '0', '1.5', '5000 KES'])('refuses %s with a sentence', (value) => {
    expect(() => settingsOf(value)).toThrow(/PAYOUT_APPROVAL/);
  });

  it('refuses a day’s limit below one payout’s', () => {
    expect(() => testConfig({ PAYOUT_MAX_AMOUNT: '5000', PAYOUT_DAILY_LIMIT: '4000' })).toThrow(
      /PAYOUT_DAILY_LIMIT must not be less than PAYOUT_MAX_AMOUNT/,
    );
  });
});
