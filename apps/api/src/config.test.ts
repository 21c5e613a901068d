import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError, REPO_ROOT, SETTING_NAMES, loadConfig, loadConfigOrExit } from './config.ts';

/** The error loadConfig stops with for `env`. */
function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig took ${JSON.stringify(env)}`);
}

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

  it('keeps phone numbers unless PHONE_RETENTION_DAYS is set, and reads it as whole days', () => {
    expect(loadConfig({}).phoneRetentionDays).toBeUndefined();
    expect(loadConfig({ PHONE_RETENTION_DAYS: '' }).phoneRetentionDays).toBeUndefined();
    expect(loadConfig({ PHONE_RETENTION_DAYS: ' 90 ' }).phoneRetentionDays).toBe(90);
    expect(loadConfig({ PHONE_RETENTION_DAYS: '3650' }).phoneRetentionDays).toBe(3650);
  });

  it.each(['0', '-1', '3651', '1.5', '30d', 'forever', '1e3'])(
    'refuses PHONE_RETENTION_DAYS=%j',
    (value) => {
      expect(() => loadConfig({ PHONE_RETENTION_DAYS: value })).toThrow(
        /^PHONE_RETENTION_DAYS must be a whole number of days from 1 to 3650/,
      );
    },
  );

  it('accepts a callback secret of up to 128 characters, and no longer', () => {
    expect(loadConfig({ MPESA_CALLBACK_SECRET: 'a'.repeat(128) }).callbackSecret).toHaveLength(128);
    expect(() => loadConfig({ MPESA_CALLBACK_SECRET: 'a'.repeat(129) })).toThrow(
      /^MPESA_CALLBACK_SECRET must be 16 to 128 letters/,
    );
  });

  it.each([
    ['false', false],
    ['', false],
    ['0', false],
    ['2', 2],
    ['10.0.0.5', ['10.0.0.5']],
    [' 10.0.0.5 , 10.1.0.0/16,2001:db8::/32 ', ['10.0.0.5', '10.1.0.0/16', '2001:db8::/32']],
  ])('reads TRUST_PROXY=%j as %j', (value, trustProxy) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(trustProxy);
  });

  it.each([
    ['proxy.example.com', /^TRUST_PROXY has "proxy.example.com", which is not an IP address/],
    ['10.0.0.5, yes', /^TRUST_PROXY has "yes"/],
    ['10.0.0.0/33', /^TRUST_PROXY has "10.0.0.0\/33"/],
    ['11', /^TRUST_PROXY must be at most 10 proxies/],
    [
      '0.0.0.0/0',
      /^TRUST_PROXY has "0.0.0.0\/0", a range so wide it would take clients for proxies/,
    ],
    ['::/0', /^TRUST_PROXY has "::\/0", a range so wide/],
    ['0.0.0.0/1,128.0.0.0/1', /^TRUST_PROXY has "0.0.0.0\/1", a range so wide/],
  ])('refuses TRUST_PROXY=%j', (value, message) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(message);
  });

  it.each([
    { MPESA_CALLBACK_ALLOWED_IPS: '196.201.214.200' },
    {
      MPESA_ENV: 'production',
      MPESA_CONSUMER_KEY: 'k',
      MPESA_CONSUMER_SECRET: 's',
      MPESA_SHORTCODE: '123456',
      MPESA_PASSKEY: 'p',
      MPESA_CALLBACK_URL: 'https://x.example',
    },
  ])('refuses TRUST_PROXY=true while the callback allow-list is on, and says why (%j)', (env) => {
    expect(() => loadConfig({ ...env, TRUST_PROXY: 'true' })).toThrow(
      /^TRUST_PROXY=true cannot be used while the callback allow-list \(MPESA_CALLBACK_ALLOWED_IPS\) is on: any client could then pick its own address/,
    );
  });

  it('takes TRUST_PROXY=true with the allow-list off, with a warning that the per-address limit can then be evaded', () => {
    const config = loadConfig({ TRUST_PROXY: 'true', MPESA_CALLBACK_ALLOWED_IPS: 'off' });
    expect(config.trustProxy).toBe(true);
    expect(config.warnings).toEqual([expect.stringMatching(/evade the per-address payment limit/)]);
    expect(loadConfig({ TRUST_PROXY: '2' }).warnings).toEqual([
      expect.stringMatching(/safe only if the app cannot be reached except through those proxies/),
    ]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5' }).warnings).toEqual([]);
  });

  it('warns when the session cookie is Secure and no proxy is trusted to say the page was https', () => {
    const secure = loadConfig({ SESSION_COOKIE_SECURE: 'true' });
    expect(secure.warnings).toEqual([
      expect.stringMatching(/TRUST_PROXY is not set: behind a proxy/),
    ]);
    expect(loadConfig({ SESSION_COOKIE_SECURE: 'true', TRUST_PROXY: '10.0.0.5' }).warnings).toEqual(
      [],
    );
    expect(loadConfig({}).warnings).toEqual([]);
  });

  it('limits slow clients by default, and checks for them as often as the shortest limit needs', () => {
    expect(loadConfig({}).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      checkIntervalMs: 1_000,
    });
    expect(
      loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '600' }).http
        .checkIntervalMs,
    ).toBe(30);
  });

  it.each([
    [{ HTTP_HEADERS_TIMEOUT_MS: '0' }, /^HTTP_HEADERS_TIMEOUT_MS /],
    [{ HTTP_REQUEST_TIMEOUT_MS: '600001' }, /^HTTP_REQUEST_TIMEOUT_MS /],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: '0' }, /^HTTP_KEEP_ALIVE_TIMEOUT_MS /],
    [
      { HTTP_HEADERS_TIMEOUT_MS: '40000' },
      /^HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS/,
    ],
  ])('refuses timeouts that are off or out of order: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    ['RECONCILE_INTERVAL_MS', '3000000000'],
    ['PHONE_COOLDOWN_S', '100000000000000'],
    ['RECONCILE_AFTER_S', '100000000000000'],
    ['RECONCILE_GIVE_UP_S', '100000000000000'],
    ['RECONCILE_MAX_BACKOFF_S', '2592001'],
    ['STKPUSH_RATE_WINDOW_S', '2592001'],
    ['STKPUSH_RATE_LIMIT', '1000001'],
  ])('refuses %s=%s, which would overflow a timer or a date', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} `));
  });

  it('names the business the payer pays: the simulator’s own by default, else only when set', () => {
    expect(loadConfig({}).businessName).toBe('Sandbox Test Merchant');
    expect(loadConfig({ BUSINESS_NAME: '  Mama Mboga Ltd ' }).businessName).toBe('Mama Mboga Ltd');
    const sandbox = {
      MPESA_ENV: 'sandbox',
      MPESA_CONSUMER_KEY: 'k',
      MPESA_CONSUMER_SECRET: 's',
      MPESA_CALLBACK_URL: 'https://pay.example.com',
    };
    expect(loadConfig(sandbox).businessName).toBeUndefined();
    expect(loadConfig({ ...sandbox, BUSINESS_NAME: 'Duka' }).businessName).toBe('Duka');
    expect(() => loadConfig({ BUSINESS_NAME: 'x'.repeat(61) })).toThrow(/^BUSINESS_NAME /);
  });

  it('refuses a give-up time shorter than the first check', () => {
    expect(() => loadConfig({ RECONCILE_AFTER_S: '90', RECONCILE_GIVE_UP_S: '60' })).toThrow(
      'RECONCILE_GIVE_UP_S must not be shorter than RECONCILE_AFTER_S',
    );
    expect(
      loadConfig({ RECONCILE_AFTER_S: '60', RECONCILE_GIVE_UP_S: '60' }).reconcile,
    ).toMatchObject({ afterS: 60, giveUpS: 60 });
  });

  it('reads blank refund settings as unset, as other optional settings', () => {
    const sandbox = {
      MPESA_ENV: 'sandbox',
      MPESA_CONSUMER_KEY: 'k',
      MPESA_CONSUMER_SECRET: 's',
      MPESA_CALLBACK_URL: 'https://pay.example.com',
    };
    const blank = {
      ...sandbox,
      MPESA_SECURITY_CREDENTIAL: '',
      MPESA_INITIATOR_NAME: '',
      MPESA_INITIATOR_PASSWORD: ' ',
    };
    expect(loadConfig(blank).refunds.initiator).toBeUndefined();
    // In simulator mode blank takes the simulator's initiator, as unset does.
    expect(
      loadConfig({ MPESA_INITIATOR_NAME: '', MPESA_INITIATOR_PASSWORD: '' }).refunds.initiator,
    ).toMatchObject({ name: 'testapi', password: 'Safaricom999!*!' });
    const credential = 'A'.repeat(342) + '==';
    expect(
      loadConfig({
        ...sandbox,
        MPESA_INITIATOR_NAME: 'apiop',
        MPESA_SECURITY_CREDENTIAL: credential,
      }).refunds.initiator,
    ).toMatchObject({ name: 'apiop', securityCredential: credential });
  });

  it('refuses a SecurityCredential too short to be one, saying why', () => {
    expect(
      refusal({ MPESA_INITIATOR_NAME: 'apiop', MPESA_SECURITY_CREDENTIAL: 'c2VjcmV0' }).problems,
    ).toEqual([
      expect.stringMatching(
        /^MPESA_SECURITY_CREDENTIAL is too short to be a SecurityCredential \(the Daraja portal makes one of 344 characters/,
      ),
    ]);
  });

  it('refuses a refund give-up time shorter than its first check', () => {
    expect(refusal({ REFUND_CHECK_AFTER_S: '120', REFUND_GIVE_UP_S: '60' }).problems).toEqual([
      expect.stringMatching(/^REFUND_GIVE_UP_S must not be shorter than REFUND_CHECK_AFTER_S/),
    ]);
    expect(
      loadConfig({ REFUND_CHECK_AFTER_S: '60', REFUND_GIVE_UP_S: '60' }).refunds,
    ).toMatchObject({ checkAfterS: 60, giveUpS: 60 });
  });

  it('names every bad setting at once, each in its own sentence', () => {
    const error = refusal({
      PORT: 'eighty',
      MPESA_SHORTCODE: '12',
      RECONCILE_AFTER_S: '90',
      RECONCILE_GIVE_UP_S: '60',
    });
    expect(error.problems).toEqual([
      expect.stringMatching(/^PORT .*\(got "eighty"\)$/),
      expect.stringMatching(/^MPESA_SHORTCODE must be a 5 to 7 digit shortcode/),
      expect.stringMatching(/^RECONCILE_GIVE_UP_S must not be shorter than RECONCILE_AFTER_S/),
    ]);
    expect(error.message).toBe(error.problems.join('\n'));
  });

  it('names each missing setting, and judges a rule between settings only on settings that were read', () => {
    const error = refusal({ MPESA_ENV: 'sandbox', HTTP_HEADERS_TIMEOUT_MS: '40000x' });
    expect(error.problems).toEqual([
      expect.stringMatching(/^HTTP_HEADERS_TIMEOUT_MS /),
      'MPESA_CONSUMER_KEY is required when MPESA_ENV=sandbox',
      'MPESA_CONSUMER_SECRET is required when MPESA_ENV=sandbox',
      'MPESA_CALLBACK_URL is required when MPESA_ENV=sandbox',
    ]);
  });

  it('stops a process with one line per bad setting', () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    try {
      expect(() => loadConfigOrExit({ PORT: 'eighty' })).toThrow('exit 1');
      expect(printed).toHaveBeenLastCalledWith(
        expect.stringMatching(/^Configuration error: PORT /),
      );
      expect(() => loadConfigOrExit({ PORT: 'eighty', HOST: ' ', LOG_LEVEL: 'loud' })).toThrow(
        'exit 1',
      );
      expect(printed.mock.lastCall?.[0]).toMatch(
        /^Configuration errors \(3\):\n {2}HOST .*\n {2}PORT .*\n {2}LOG_LEVEL .*$/,
      );
    } finally {
      printed.mockRestore();
      exit.mockRestore();
    }
  });

  it('puts the history behind operators, with a Secure cookie, by default in production only', () => {
    const production = {
      MPESA_ENV: 'production',
      MPESA_CONSUMER_KEY: 'k',
      MPESA_CONSUMER_SECRET: 's',
      MPESA_SHORTCODE: '123456',
      MPESA_PASSKEY: 'p',
      MPESA_CALLBACK_URL: 'https://pay.example.com',
    };
    expect(loadConfig({}).operators).toEqual({
      historyAccess: 'open',
      cookieSecure: false,
      idleMs: 30 * 60_000,
      maxMs: 12 * 3_600_000,
      passwordHashCost: 15,
    });
    expect(loadConfig(production).operators).toMatchObject({
      historyAccess: 'operators',
      cookieSecure: true,
    });
    expect(
      loadConfig({ ...production, HISTORY_ACCESS: 'open', SESSION_COOKIE_SECURE: 'false' })
        .operators,
    ).toMatchObject({ historyAccess: 'open', cookieSecure: false });
    expect(
      loadConfig({ HISTORY_ACCESS: 'operators', SESSION_IDLE_MINUTES: '5', SESSION_MAX_HOURS: '1' })
        .operators,
    ).toMatchObject({ historyAccess: 'operators', idleMs: 300_000, maxMs: 3_600_000 });
    expect(refusal({ HISTORY_ACCESS: 'closed' }).problems).toEqual([
      expect.stringMatching(/^HISTORY_ACCESS /),
    ]);
    expect(refusal({ SESSION_IDLE_MINUTES: '120', SESSION_MAX_HOURS: '1' }).problems).toEqual([
      expect.stringMatching(/^SESSION_IDLE_MINUTES must not be longer than SESSION_MAX_HOURS/),
    ]);
    // Lower in tests only: refused in production, and out of scrypt's sane range anywhere.
    expect(loadConfig({ PASSWORD_HASH_COST: '10' }).operators.passwordHashCost).toBe(10);
    expect(loadConfig({ ...production, PASSWORD_HASH_COST: '17' }).operators.passwordHashCost).toBe(
      17,
    );
    expect(refusal({ ...production, PASSWORD_HASH_COST: '14' }).problems).toEqual([
      'PASSWORD_HASH_COST must be at least 15 when MPESA_ENV=production (a lower one is for tests)',
    ]);
    expect(refusal({ PASSWORD_HASH_COST: '9' }).problems).toEqual([
      expect.stringMatching(/^PASSWORD_HASH_COST /),
    ]);
  });

  it('documents every setting in docs/configuration.md, and no other', () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/configuration.md'), 'utf8');
    // A setting's line starts with its variable, or two joined by "and": "- `HOST` (default …): …".
    const documented = [...doc.matchAll(/^- (`[A-Z][A-Z0-9_]*`(?: and `[A-Z][A-Z0-9_]*`)*) \(/gm)]
      .flatMap(([, names]) => names!.match(/[A-Z][A-Z0-9_]*/g)!)
      .sort();
    expect(new Set(documented).size, 'each setting once').toBe(documented.length);
    expect(documented).toEqual([...SETTING_NAMES].sort());
  });
});
