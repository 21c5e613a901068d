/**
 * CORS_ORIGINS: a web app on another origin calls /api from a browser. What the browser needs is
 * checked header by header: the preflight, and Access-Control-Allow-Origin on every answer it
 * reads, errors included (without it the browser hides the message from the page).
 */
import { describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { ConfigError, loadConfig } from './config.ts';
import type { DarajaClient } from './daraja/daraja-client.ts';
import { DIALECTS, createTestDatabase } from './test/test-db.ts';
import { CALLBACK_PATH, createTestApp } from './test/test-app.ts';
import { useApiWithSimulator } from './test/world.ts';
import { closedWithin, connect, listenLocally } from './test/raw-http.ts';
import { successCallback } from './test/callbacks.ts';

const SHOP = 'https://shop.example';
const LOCAL_DEV = 'http://127.0.0.1:5173';
const STRANGER = 'https://elsewhere.example';
const EXPOSED = 'Retry-After, Idempotent-Replayed, Content-Disposition';

const payment = (n: number) => ({ phoneNumber: `07${String(10_000_000 + n)}`, amount: 10 });

/** The CORS headers of an answer, and nothing else, so that an unexpected one shows. */
function corsHeaders(answer: LightMyRequestResponse): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(answer.headers).filter(([name]) => name.startsWith('access-control-')),
  );
}

const allowedFor = (origin: string) => ({
  'access-control-allow-origin': origin,
  'access-control-expose-headers': EXPOSED,
});

describe('the CORS_ORIGINS setting', () => {
  it('is off unless set', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: ' ' }).corsOrigins).toEqual([]);
  });

  it('takes origins, comma-separated, once each', () => {
    const config = loadConfig({
      CORS_ORIGINS: ` ${SHOP}, ${LOCAL_DEV},,http://[::1]:8080 , ${SHOP}`,
    });
    expect(config.corsOrigins).toEqual([SHOP, LOCAL_DEV, 'http://[::1]:8080']);
    expect(config.warnings).toEqual([]);
  });

  it('takes "*" alone, with a warning that any site can then send prompts from its visitors', () => {
    const config = loadConfig({ CORS_ORIGINS: '*' });
    expect(config.corsOrigins).toBe('*');
    expect(config.warnings).toEqual([
      expect.stringMatching(
        /^CORS_ORIGINS=\* lets pages on any site .* past the per-address limit/,
      ),
    ]);
  });

  it.each([
    ['https://shop.example/', /write "https:\/\/shop\.example" \(scheme, host and port only\)/],
    ['https://shop.example/pay', /write "https:\/\/shop\.example"/],
    ['https://shop.example:443', /write "https:\/\/shop\.example"/],
    ['HTTPS://Shop.Example', /write "https:\/\/shop\.example"/],
    ['shop.example', /"shop\.example", which is not a web origin/],
    ['ftp://shop.example', /"ftp:\/\/shop\.example", which is not a web origin/],
    ['null', /"null", which is not a web origin/],
    ['https://*.shop.example', /an origin cannot hold a wildcard/],
    [`${SHOP},*`, /must be "\*" alone/],
  ])('refuses %j, naming the variable', (value, message) => {
    const load = () => loadConfig({ CORS_ORIGINS: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/^CORS_ORIGINS /);
    expect(load).toThrow(message);
  });
});

for (const dialect of DIALECTS) {
  describe(`CORS on /api (${dialect})`, () => {
    const world = useApiWithSimulator(dialect, {
      env: { CORS_ORIGINS: `${SHOP},${LOCAL_DEV}` },
    });

    const request = (options: InjectOptions) => world.app.inject(options);
    const preflight = (url: string, origin: string, headers: Record<string, string> = {}) =>
      request({
        method: 'OPTIONS',
        url,
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,idempotency-key',
          ...headers,
        },
      });
    const pay = (body: unknown, headers: Record<string, string> = {}) =>
      request({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        headers: { origin: SHOP, 'content-type': 'application/json', ...headers },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      });

    describe('preflight', () => {
      it('answers an origin on the list with 204: methods, headers, and how long to keep it', async () => {
        for (const origin of [SHOP, LOCAL_DEV]) {
          const answer = await preflight('/api/mpesa/stkpush', origin);
          expect(answer.statusCode).toBe(204);
          expect(answer.body).toBe('');
          expect(corsHeaders(answer)).toEqual({
            ...allowedFor(origin),
            'access-control-allow-methods': 'GET, POST',
            'access-control-allow-headers': 'Content-Type, Accept, Idempotency-Key',
            'access-control-max-age': '7200',
          });
          expect(answer.headers.vary).toBe('Origin');
        }
      });

      it('answers for the GETs too, and for any path under /api (an unknown one is then a 404 the page can read)', async () => {
        for (const url of [
          '/api/mpesa/transactions/abc?x=1',
          '/api/config',
          '/api/mpesa/transactions/export',
          '/api/nowhere',
        ]) {
          const answer = await preflight(url, SHOP, { 'access-control-request-method': 'GET' });
          expect(answer.statusCode, url).toBe(204);
          expect(answer.headers['access-control-allow-origin'], url).toBe(SHOP);
        }
      });

      it('refuses an origin not on the list with 403 in our shape, and no CORS headers', async () => {
        for (const origin of [STRANGER, 'null', `${SHOP}:8443`, 'http://shop.example']) {
          const answer = await preflight('/api/mpesa/stkpush', origin);
          expect(answer.statusCode, origin).toBe(403);
          expect(answer.json()).toEqual({
            success: false,
            code: 'ORIGIN_NOT_ALLOWED',
            message:
              'Pages on this origin may not call this API from a browser: it is not in the server’s CORS_ORIGINS setting',
          });
          expect(corsHeaders(answer), origin).toEqual({});
          expect(answer.headers.vary).toBe('Origin');
        }
      });

      it('leaves other OPTIONS requests as they were: 404', async () => {
        const before = await request({ method: 'OPTIONS', url: '/api/mpesa/stkpush' });
        expect(before.statusCode).toBe(404);
        const noMethod = await request({
          method: 'OPTIONS',
          url: '/api/mpesa/stkpush',
          headers: { origin: SHOP },
        });
        expect(noMethod.statusCode).toBe(404);
        expect(noMethod.json()).toEqual(before.json());
        // Outside /api: the web app's files are not the API's to share.
        const page = await preflight('/transactions', SHOP);
        expect(page.statusCode).toBe(404);
        expect(corsHeaders(page)).toEqual({});
      });
    });

    describe('answers', () => {
      it('lets an origin on the list read a GET, and tells caches the answer depends on the origin', async () => {
        const answer = await request({ url: '/api/mpesa/transactions', headers: { origin: SHOP } });
        expect(answer.statusCode).toBe(200);
        expect(corsHeaders(answer)).toEqual(allowedFor(SHOP));
        expect(answer.headers.vary).toBe('Origin');
      });

      it('keeps Vary: Origin beside Accept-Encoding on a compressed answer', async () => {
        // Answers of 1 KB or more are compressed: a list of a few payments is.
        for (const n of [11, 12, 13, 14]) expect((await pay(payment(n))).statusCode).toBe(200);
        const answer = await request({
          url: '/api/mpesa/transactions',
          headers: { origin: SHOP, 'accept-encoding': 'gzip' },
        });
        expect(answer.headers['content-encoding']).toBe('gzip');
        expect(answer.headers['access-control-allow-origin']).toBe(SHOP);
        expect(String(answer.headers.vary).toLowerCase().split(/,\s*/)).toEqual([
          'origin',
          'accept-encoding',
        ]);
      });

      it('sends no CORS headers to other origins, or to requests with no origin (same-origin GETs)', async () => {
        for (const headers of [{ origin: STRANGER }, {}]) {
          const answer = await request({ url: '/api/mpesa/transactions', headers });
          expect(answer.statusCode).toBe(200);
          expect(corsHeaders(answer)).toEqual({});
          expect(answer.headers.vary).toBe('Origin');
        }
      });

      it('lets the page read the CSV export and its file name', async () => {
        const answer = await request({
          url: '/api/mpesa/transactions/export',
          headers: { origin: LOCAL_DEV },
        });
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-disposition']).toMatch(/^attachment; filename=/);
        expect(corsHeaders(answer)).toEqual(allowedFor(LOCAL_DEV));
      });

      it('lets the page read a payment’s answer, and the replayed answer’s Idempotent-Replayed', async () => {
        const first = await pay(payment(1), { 'idempotency-key': 'cors-key-1' });
        expect(first.statusCode).toBe(200);
        expect(corsHeaders(first)).toEqual(allowedFor(SHOP));
        const again = await pay(payment(1), { 'idempotency-key': 'cors-key-1' });
        expect(again.statusCode).toBe(200);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(corsHeaders(again)).toEqual(allowedFor(SHOP));
      });

      it('lets the page read every error: invalid, malformed JSON, not found, busy phone', async () => {
        const invalid = await pay({ phoneNumber: '123', amount: 10 });
        expect(invalid.statusCode).toBe(400);
        expect(invalid.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
        expect(corsHeaders(invalid)).toEqual(allowedFor(SHOP));

        const malformed = await pay('{"phoneNumber": ');
        expect(malformed.statusCode).toBe(400);
        expect(malformed.json()).toMatchObject({ success: false, message: expect.any(String) });
        expect(corsHeaders(malformed)).toEqual(allowedFor(SHOP));

        // `/api?x` and `/API` too: the API's 404 is what the CORS headers go on (lib/api-path.ts).
        for (const url of ['/api/mpesa/transactions/nope', '/api/nowhere', '/api?x', '/API']) {
          const missing = await request({ url, headers: { origin: SHOP } });
          expect(missing.statusCode, url).toBe(404);
          expect(missing.json(), url).toMatchObject({
            success: false,
            code: expect.stringMatching(/NOT_FOUND$/),
          });
          expect(corsHeaders(missing), url).toEqual(allowedFor(SHOP));
        }

        await pay(payment(2));
        const busy = await pay(payment(2));
        expect(busy.statusCode).toBe(429);
        expect(busy.json()).toMatchObject({ success: false, code: 'PHONE_BUSY' });
        expect(corsHeaders(busy)).toEqual(allowedFor(SHOP));
      });

      it('lets the page read the per-address limit’s 429, whose Retry-After is exposed', async () => {
        await world.rebuild({ STKPUSH_RATE_LIMIT: '1' });
        expect((await pay(payment(3))).statusCode).toBe(200);
        const limited = await pay(payment(4));
        expect(limited.statusCode).toBe(429);
        expect(limited.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
        expect(corsHeaders(limited)).toEqual(allowedFor(SHOP));
      });

      it('lets the page read the router’s own refusals: a broken %-escape, an overlong id', async () => {
        const broken = await request({
          url: '/api/mpesa/transactions/%E0%A4%A',
          headers: { origin: SHOP },
        });
        expect(broken.statusCode).toBe(400);
        expect(broken.json()).toMatchObject({ success: false, code: 'BAD_URL' });
        expect(corsHeaders(broken)).toEqual(allowedFor(SHOP));

        const overlong = await request({
          url: `/api/mpesa/transactions/${'a'.repeat(300)}`,
          headers: { origin: SHOP },
        });
        expect(overlong.statusCode).toBe(414);
        expect(corsHeaders(overlong)).toEqual(allowedFor(SHOP));
      });

      it('leaves the callback route as it was: no CORS headers, and no preflight answered', async () => {
        const callback = await request({
          method: 'POST',
          url: CALLBACK_PATH,
          headers: { origin: SHOP },
          payload: successCallback('ws_CO_unknown', { amount: 10, phoneNumber: '254700000000' }),
        });
        expect(callback.statusCode).toBe(200);
        expect(corsHeaders(callback)).toEqual({});
        expect(callback.headers.vary).toBeUndefined();

        const callbackPreflight = await preflight(CALLBACK_PATH, SHOP);
        expect(callbackPreflight.statusCode).toBe(404);
        expect(corsHeaders(callbackPreflight)).toEqual({});
      });

      it('leaves the web app’s pages alone', async () => {
        for (const url of ['/transactions', '/apix', '/apix?x']) {
          const page = await request({ url, headers: { origin: SHOP } });
          expect(corsHeaders(page), url).toEqual({});
          expect(page.headers.vary, url).toBeUndefined();
        }
      });
    });

    describe('CORS_ORIGINS=*', () => {
      it('lets any origin preflight and read, with `*` and no Vary: Origin', async () => {
        await world.rebuild({ CORS_ORIGINS: '*' });
        const answer = await preflight('/api/mpesa/stkpush', STRANGER);
        expect(answer.statusCode).toBe(204);
        expect(answer.headers['access-control-allow-origin']).toBe('*');
        expect(answer.headers.vary).toBeUndefined();

        const created = await request({
          method: 'POST',
          url: '/api/mpesa/stkpush',
          headers: { origin: STRANGER },
          payload: payment(5),
        });
        expect(created.statusCode).toBe(200);
        expect(corsHeaders(created)).toEqual(allowedFor('*'));
        const read = await request({ url: '/api/mpesa/transactions' });
        expect(corsHeaders(read)).toEqual(allowedFor('*'));
        expect(corsHeaders(await request({ url: '/' }))).toEqual({});
      });
    });

    describe('CORS_ORIGINS unset', () => {
      it('sends no CORS headers at all, and refuses every preflight in our shape', async () => {
        await world.rebuild({ CORS_ORIGINS: '' });
        const read = await request({ url: '/api/mpesa/transactions', headers: { origin: SHOP } });
        expect(read.statusCode).toBe(200);
        expect(corsHeaders(read)).toEqual({});
        expect(read.headers.vary).toBeUndefined();
        const answer = await preflight('/api/mpesa/stkpush', SHOP);
        expect(answer.statusCode).toBe(403);
        expect(answer.json()).toMatchObject({ success: false, code: 'ORIGIN_NOT_ALLOWED' });
        expect(corsHeaders(answer)).toEqual({});
      });
    });
  });
}

describe('CORS while the server closes', () => {
  it('lets the page read the 503 of a request that arrives while the app closes', async () => {
    // A Daraja that answers once told to: a payment is under way when the app starts closing.
    let underWay!: () => void;
    const started = new Promise<void>((resolve) => (underWay = resolve));
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const daraja: DarajaClient = {
      stkPush: async () => {
        underWay();
        await answered;
        return {
          merchantRequestId: 'm-1',
          checkoutRequestId: 'ws_CO_cors_1',
          responseCode: '0',
          responseDescription: 'Success. Request accepted for processing',
          customerMessage: 'Success. Request accepted for processing',
        };
      },
      stkQuery: async () => ({ state: 'pending', message: '' }),
    };
    const database = await createTestDatabase('sqlite');
    const { app } = await createTestApp({ database, daraja, env: { CORS_ORIGINS: SHOP } });
    const client = connect(await listenLocally(app));
    const body = JSON.stringify(payment(6));
    client.socket.write(
      'POST /api/mpesa/stkpush HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Origin: ${SHOP}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await started;
    const closing = app.close();
    // Read after the payment's answer (HTTP/1.1 answers in order), while the app is closing.
    client.socket.write(`GET /api/health HTTP/1.1\r\nHost: localhost\r\nOrigin: ${SHOP}\r\n\r\n`);
    answer();
    await closing;
    expect(await closedWithin(client, 2000)).toBeLessThan(2000);
    await database.destroy();
    const received = client.received();
    const second = received.slice(received.indexOf('HTTP/1.1', 1));
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(new RegExp(`\r\naccess-control-allow-origin: ${SHOP}\r\n`, 'i'));
    expect(second).toMatch(/\r\naccess-control-expose-headers: Retry-After, /i);
  });
});
