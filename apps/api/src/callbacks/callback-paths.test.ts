/** The callback paths: the URL Daraja is given, the route that takes it, and the log's masking. */
import { describe, expect, it } from 'vitest';
import { CALLBACK_ROUTES } from '../features/index.ts';
import {
  CALLBACK_PREFIX,
  CALLBACK_PREFIXES,
  callbackRoute,
  callbackUrls,
  redactCallbackUrl,
} from './callback-paths.ts';

const SECRET = 'test-callback-secret-0123456789';

describe('callback paths', () => {
  it('gives Daraja the STK push URL it has always been given', () => {
    const callbackUrlFor = callbackUrls(CALLBACK_ROUTES, 'https://pay.example.com', SECRET);
    expect(callbackUrlFor('stk-push')).toBe(`https://pay.example.com/api/mpesa/callback/${SECRET}`);
    expect(callbackRoute(CALLBACK_ROUTES['stk-push'])).toBe('/mpesa/callback/:secret');
  });

  it('puts the secret first in every kind’s path, where the log masks it', () => {
    const callbackUrlFor = callbackUrls(CALLBACK_ROUTES, '', SECRET);
    for (const [kind, route] of Object.entries(CALLBACK_ROUTES)) {
      const url = callbackUrlFor(kind);
      const prefix = CALLBACK_PREFIXES.find((one) => url.startsWith(`${one}${SECRET}`));
      expect(prefix, kind).toBeDefined();
      expect(`/api${callbackRoute(route)}`.startsWith(`${prefix}:secret`)).toBe(true);
      expect(redactCallbackUrl(url)).not.toContain(SECRET);
    }
  });

  it('gives the C2B URLs no word Daraja refuses to register (docs/daraja-protocol.md §M3.1)', () => {
    const callbackUrlFor = callbackUrls(
      CALLBACK_ROUTES,
      'https://shop.example.com',
      'secret-of-the-shop-0001',
    );
    for (const kind of ['c2b-validation', 'c2b-confirmation'] as const) {
      expect(callbackUrlFor(kind)).not.toMatch(/m-?pesa|safaricom|exe|cmd|sql|query/i);
    }
    expect(callbackUrlFor('c2b-confirmation')).toBe(
      'https://shop.example.com/api/c2b/secret-of-the-shop-0001/confirmation',
    );
    expect(CALLBACK_PREFIX).toBe('/api/mpesa/callback/');
  });

  it('gives each kind the URL Daraja has been given for it', () => {
    const callbackUrlFor = callbackUrls(CALLBACK_ROUTES, '', 's');
    expect(
      Object.fromEntries(Object.keys(CALLBACK_ROUTES).map((k) => [k, callbackUrlFor(k)])),
    ).toEqual({
      'stk-push': '/api/mpesa/callback/s',
      reversal: '/api/mpesa/callback/s/reversal',
      'refund-status': '/api/mpesa/callback/s/refund-status',
      'receipt-status': '/api/mpesa/callback/s/receipt-status',
      'queue-timeout': '/api/mpesa/callback/s/queue-timeout',
      'c2b-validation': '/api/c2b/s/validation',
      'c2b-confirmation': '/api/c2b/s/confirmation',
      'payout-b2c': '/api/mpesa/callback/s/payout-b2c',
      'payout-b2b': '/api/mpesa/callback/s/payout-b2b',
      'payout-status': '/api/mpesa/callback/s/payout-status',
      balance: '/api/mpesa/callback/s/balance',
    });
    expect(() => callbackUrlFor('pull-transactions')).toThrow(
      'No callback route for the pull-transactions kind',
    );
  });

  it('masks the secret in a request URL and leaves every other URL as it is', () => {
    expect(redactCallbackUrl(`/api/mpesa/callback/${SECRET}?x=1`)).toBe(
      '/api/mpesa/callback/[redacted]?x=1',
    );
    expect(redactCallbackUrl('/api/mpesa/transactions/abc')).toBe('/api/mpesa/transactions/abc');
  });
});
