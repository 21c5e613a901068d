/**
 * A few thousand malformed and hostile requests against every route: wrong types, huge strings, odd
 * Unicode, prototype-pollution keys, SQL fragments, overlong or broken URLs, and X-Forwarded-For
 * headers that are long, not addresses, or many hops deep, to an app behind a trusted proxy and to
 * one that trusts any proxy. Nothing may answer 5xx, crash, or corrupt data, and every refusal is
 * in our own shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { errorResponseSchema } from '@mpesa/shared/contract';
import { DIALECTS, createTestDatabase, type TestDatabase } from './test/test-db.ts';
import { CALLBACK_PATH, createTestApp } from './test/test-app.ts';
import { startSimulator, type RunningSimulator } from './test/simulator.ts';

/** A small seeded generator, so a failure can be replayed. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick };
}

const SEED = 20261122;
let random = prng(SEED);

const STRINGS = [
  '',
  ' ',
  '0712345678',
  '+254712345678',
  '254700000000',
  '07123456789012345678',
  "' OR '1'='1",
  "'; DROP TABLE transactions; --",
  '1; SELECT pg_sleep(10)',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '\u0000\u0001\u001f',
  '\u202e\u200b\ufeff',
  '🙂'.repeat(50),
  'e\u0301'.repeat(40),
  'Ω≈ç√∫˜µ≤≥÷',
  '٠٧١٢٣٤٥٦٧٨',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '0x10',
  '100.000000000000000001',
  'x'.repeat(5_000),
  '\ud800',
];
/** Percent-encodes, and sends a lone surrogate as the invalid UTF-8 it would be on the wire. */
function urlPart(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

const NUMBERS = [0, -1, 1, 1.5, 250_000, 250_001, Number.MAX_SAFE_INTEGER, 1e308, -1e308, 5e-324];

function value(depth = 0): unknown {
  const kind = random.next();
  if (kind < 0.3) return random.pick(STRINGS);
  if (kind < 0.5) return random.pick(NUMBERS);
  if (kind < 0.6) return random.pick([null, true, false]);
  if (kind < 0.7 && depth < 3)
    return Array.from({ length: Math.floor(random.next() * 4) }, () => value(depth + 1));
  if (kind < 0.8 && depth < 3) return body(depth + 1);
  if (kind < 0.85) return { $ne: null };
  return random.pick(STRINGS);
}

const KEYS = [
  'phoneNumber',
  'amount',
  'reference',
  'description',
  '__proto__',
  'constructor',
  'prototype',
  'Body',
  'stkCallback',
  'ResultCode',
  'CheckoutRequestID',
  'CallbackMetadata',
  'Item',
  '',
];

/** What a client, or a chain of proxies, might put in X-Forwarded-For. */
const FORWARDED_FOR = [
  '196.201.214.200',
  '198.51.100.7, 196.201.214.200',
  '196.201.214.200, 198.51.100.7',
  '2001:db8:1:2::a',
  '::ffff:196.201.214.200',
  `fe80::1%${'z'.repeat(200)}`,
  'x'.repeat(250),
  'x'.repeat(5000),
  Array.from({ length: 200 }, (_, i) => `203.0.113.${i % 256}`).join(', '),
  'not-an-ip',
  'unknown',
  '999.999.999.999',
  '1.2.3.4:5678',
  '[2001:db8::1]:443',
  ' , , ',
  '',
];

/** URLs longer than any parameter we take, or with broken %-escapes. */
function oddUrl(): string {
  const long = (char: string) => char.repeat(random.pick([64, 65, 100, 128, 129, 1000, 10_000]));
  return random.pick([
    `/api/mpesa/transactions/${long('x')}`,
    `/api/mpesa/callback/${long('a')}`,
    `/api/${long('y')}`,
    `/api/mpesa/transactions?limit=${long('9')}`,
    `/api/mpesa/transactions/${long('%41')}`,
    '/api/mpesa/transactions/%E0%A4%A',
    '/api/mpesa/callback/%',
    '/api/mpesa/transactions/',
    `/api/mpesa/transactions/${long('/')}`,
  ]);
}

function body(depth = 0): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const count = 1 + Math.floor(random.next() * 5);
  for (let i = 0; i < count; i++) object[random.pick(KEYS)] = value(depth);
  return object;
}

/** Raw payloads, as text: JSON and things that only look like it. */
function payload(): string {
  const kind = random.next();
  if (kind < 0.55) return JSON.stringify(body());
  if (kind < 0.65) return '{"__proto__":{"polluted":true},"phoneNumber":"0712345678","amount":1}';
  if (kind < 0.7) return '{"constructor":{"prototype":{"polluted":true}}}';
  if (kind < 0.75) return JSON.stringify(body()).slice(0, -1); // truncated
  if (kind < 0.8) return '['.repeat(5000) + ']'.repeat(5000);
  if (kind < 0.85) return random.pick(STRINGS);
  if (kind < 0.9) return JSON.stringify({ Body: { stkCallback: body() } });
  if (kind < 0.95)
    return JSON.stringify({ phoneNumber: '0712345678', amount: 1, reference: 'x'.repeat(20_000) });
  return JSON.stringify(value());
}

for (const dialect of DIALECTS) {
  describe(`hostile input (${dialect})`, () => {
    let simulator: RunningSimulator;
    let database: TestDatabase;
    /** Behind one trusted proxy (inject's 127.0.0.1), with the callback allow-list on. */
    let proxied: FastifyInstance;
    /** Trusting any X-Forwarded-For (allowed with the allow-list off). */
    let trusting: FastifyInstance;

    beforeAll(async () => {
      random = prng(SEED);
      simulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '600000' });
      database = await createTestDatabase(dialect);
      // The rate limit is on (so its keys reach the database) but never reached.
      const env = { MPESA_BASE_URL: simulator.url, STKPUSH_RATE_LIMIT: '1000000' };
      ({ app: proxied } = await createTestApp({
        database,
        env: {
          ...env,
          TRUST_PROXY: '127.0.0.1',
          MPESA_CALLBACK_ALLOWED_IPS: '127.0.0.1,196.201.214.200',
        },
      }));
      ({ app: trusting } = await createTestApp({ database, env: { ...env, TRUST_PROXY: 'true' } }));
    });
    afterAll(async () => {
      await proxied.close();
      await trusting.close();
      await simulator.close();
      await database.destroy();
    });

    it(`gets no 5xx, and every refusal in our shape, from ${3000} requests on every route (seed ${SEED})`, async () => {
      const contentTypes = [
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/octet-stream',
        '',
      ];
      const failures: string[] = [];
      let accepted = 0;
      for (let i = 0; i < 3000; i++) {
        const route = random.next();
        let request: InjectOptions & { url: string; method: string };
        if (route < 0.45) {
          const headers: Record<string, string> = { 'content-type': random.pick(contentTypes) };
          if (random.next() < 0.3)
            headers['idempotency-key'] = random.pick(STRINGS).replace(/[^\x20-\x7e]/g, '') || 'k';
          request = { method: 'POST', url: '/api/mpesa/stkpush', headers, payload: payload() };
        } else if (route < 0.7) {
          request = {
            method: 'POST',
            url:
              random.next() < 0.9
                ? CALLBACK_PATH
                : `/api/mpesa/callback/${urlPart(random.pick(STRINGS))}`,
            headers: { 'content-type': random.pick(contentTypes) },
            payload: payload(),
          };
        } else if (route < 0.8) {
          request = {
            method: 'GET',
            url: `/api/mpesa/transactions/${urlPart(random.pick(STRINGS))}`,
          };
        } else if (route < 0.9) {
          request = {
            method: 'GET',
            url: `/api/mpesa/transactions?limit=${urlPart(String(value()))}`,
          };
        } else if (route < 0.95) {
          request = {
            method: random.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const),
            url: random.pick([
              '/api',
              '/api/',
              '/api/mpesa',
              '/api/mpesa/stkpush',
              '/api/config',
              '/api/health',
              `/api/${urlPart(random.pick(STRINGS))}`,
            ]),
            payload: payload(),
            headers: { 'content-type': 'application/json' },
          };
        } else {
          request = {
            method: random.pick(['GET', 'POST'] as const),
            url: oddUrl(),
            headers: { 'content-type': 'application/json' },
            payload: payload(),
          };
        }
        if (random.next() < 0.5) {
          const headers = (request.headers ?? {}) as Record<string, string>;
          headers['x-forwarded-for'] = random.pick([
            ...FORWARDED_FOR,
            random.pick(STRINGS).replace(/[^\x20-\x7e]/g, ''),
          ]);
          request.headers = headers;
        }
        const app = random.next() < 0.5 ? proxied : trusting;
        const response = await app.inject(request);
        const seen = `${request.method} ${request.url.slice(0, 80)} → ${response.statusCode} ${response.body.slice(0, 200)}`;
        if (response.statusCode >= 500) failures.push(seen);
        if (request.url === '/api/mpesa/stkpush' && response.statusCode === 200) accepted++;
        if (response.statusCode >= 400) {
          // Ours: {success: false, code, message}, or Daraja's envelope on the callback route.
          const parsed = response.json();
          const daraja = request.url.startsWith('/api/mpesa/callback/') && 'ResultCode' in parsed;
          if (!daraja && !errorResponseSchema.safeParse(parsed).success) failures.push(seen);
          if (String(parsed.code).startsWith('FST_')) failures.push(seen);
        }
      }
      expect(failures).toEqual([]);

      // Nothing leaked into shared prototypes, and the data is what the accepted requests made.
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const { count } = await database.db
        .selectFrom('transactions')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBeGreaterThanOrEqual(accepted);
      for (const app of [proxied, trusting]) {
        expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
        const list = await app.inject({ url: '/api/mpesa/transactions?limit=200' });
        expect(list.statusCode).toBe(200);
      }
      // Every counter is keyed by the route and a client address short enough to store.
      const keys = await database.db.selectFrom('rate_limits').select('key').execute();
      for (const { key } of keys)
        expect(key).toMatch(/^POST \/api\/mpesa\/stkpush\|[0-9a-f.:/]{3,45}$/);
    }, 120_000);
  });
}
