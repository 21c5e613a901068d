import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, REPO_ROOT, SETTING_NAMES, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs against the simulator with no settings at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      databaseUrl: path.join(REPO_ROOT, 'data', 'mpesa.sqlite'),
      mpesa: {
        env: 'simulator',
        baseUrl: 'http://127.0.0.1:3001',
        shortcode: '174379',
        partyB: '174379',
        transactionType: 'CustomerPayBillOnline',
        callbackBaseUrl: 'http://127.0.0.1:3000',
        simulatorUrl: 'http://127.0.0.1:3001',
      },
    });
  });

  it('uses Safaricom’s sandbox with the public test shortcode once credentials and a callback URL are given', () => {
    const config = loadConfig({
      MPESA_ENV: 'sandbox',
      MPESA_CONSUMER_KEY: 'k',
      MPESA_CONSUMER_SECRET: 's',
      MPESA_CALLBACK_URL: 'https://pay.example.com/',
    });
    expect(config.mpesa).toMatchObject({
      baseUrl: 'https://sandbox.safaricom.co.ke',
      shortcode: '174379',
      callbackBaseUrl: 'https://pay.example.com',
      simulatorUrl: undefined,
    });
  });

  it.each([
    [
      { MPESA_ENV: 'sandbox', MPESA_CALLBACK_URL: 'https://x.example' },
      /MPESA_CONSUMER_KEY is required when MPESA_ENV=sandbox/,
    ],
    [
      { MPESA_ENV: 'sandbox', MPESA_CONSUMER_KEY: 'k', MPESA_CONSUMER_SECRET: 's' },
      /MPESA_CALLBACK_URL is required/,
    ],
    [
      {
        MPESA_ENV: 'production',
        MPESA_CONSUMER_KEY: 'k',
        MPESA_CONSUMER_SECRET: 's',
        MPESA_CALLBACK_URL: 'https://x.example',
      },
      /MPESA_SHORTCODE is required when MPESA_ENV=production/,
    ],
    [
      {
        MPESA_ENV: 'production',
        MPESA_CONSUMER_KEY: 'k',
        MPESA_CONSUMER_SECRET: 's',
        MPESA_SHORTCODE: '123456',
        MPESA_PASSKEY: 'p',
        MPESA_CALLBACK_URL: 'http://x.example',
      },
      /MPESA_CALLBACK_URL must be an https:\/\/ URL/,
    ],
    [{ PORT: 'eighty' }, /^PORT /],
    [{ MPESA_ENV: 'live' }, /^MPESA_ENV /],
    [{ MPESA_SHORTCODE: '12' }, /^MPESA_SHORTCODE must be a 5 to 7 digit shortcode/],
    [{ MPESA_CALLBACK_SECRET: 'short' }, /^MPESA_CALLBACK_SECRET /],
    [{ MPESA_BASE_URL: 'not a url' }, /^MPESA_BASE_URL /],
  ])('stops with a message naming the variable for %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('documents every setting in the README', () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    for (const name of SETTING_NAMES) expect(readme, name).toContain(`\`${name}\``);
  });
});
