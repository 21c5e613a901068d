/**
 * The HTTP layer under the first attack on the running app: a long callback secret, client addresses a header
 * could choose, slow clients, a broken chunked body, and answers that were Fastify's rather than
 * ours. Each test reproduces a report; the socket tests speak HTTP by hand over a listening app.
 */
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../app.ts';
import type { DarajaClient } from '../daraja/daraja-client.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { TEST_CALLBACK_SECRET, testConfig } from '../test/test-app.ts';
import { successCallback } from '../test/callbacks.ts';
import {
  closedWithin,
  connect as rawConnect,
  firstResponse,
  listenLocally,
  type RawConnection,
} from '../test/raw-http.ts';

/** A Daraja that accepts every push, after `delayMs`. */
function acceptingDaraja(delayMs = 0): DarajaClient {
  let pushes = 0;
  return {
    stkPush: async () => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      pushes++;
      return {
        merchantRequestId: `m-${pushes}`,
        checkoutRequestId: `ws_CO_hardening_${pushes}`,
        responseCode: '0',
        responseDescription: 'Success. Request accepted for processing',
        customerMessage: 'Success. Request accepted for processing',
      };
    },
    stkQuery: async () => ({ state: 'pending', message: '' }),
  };
}

const phone = (n: number) => `07${String(10_000_000 + n)}`;

describe('item 5: TRUST_PROXY=true', () => {
  it('does not start while the callback allow-list is on (X-Forwarded-For: 196.201.214.200 passed it)', () => {
    expect(() =>
      testConfig({ TRUST_PROXY: 'true', MPESA_CALLBACK_ALLOWED_IPS: '196.201.214.200' }),
    ).toThrow(/any client could then pick its own address .* and pass the allow-list/);
  });
});

for (const dialect of DIALECTS) {
  describe(`HTTP hardening (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance | undefined;
    let logs = '';
    let connections: RawConnection[] = [];
    const connect = (port: number) => {
      const connection = rawConnect(port);
      connections.push(connection);
      return connection;
    };

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      logs = '';
    });
    afterEach(async () => {
      for (const { socket } of connections) socket.destroy();
      connections = [];
      await app?.close();
      app = undefined;
      await database.destroy();
    });

    async function start(
      env: Record<string, string> = {},
      { secret = TEST_CALLBACK_SECRET, daraja = acceptingDaraja() } = {},
    ): Promise<FastifyInstance> {
      const logStream = new PassThrough();
      logStream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
      app = await buildApp({
        config: testConfig({ MPESA_CALLBACK_SECRET: secret, ...env }),
        callbackSecret: secret,
        database,
        daraja,
        ...(env.LOG_LEVEL ? { logStream } : { logger: false }),
      });
      await app.ready();
      return app;
    }

    const pay = (
      target: FastifyInstance,
      n: number,
      { amount = 10, ...options }: Partial<InjectOptions> & { amount?: unknown } = {},
    ) =>
      target.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        ...options,
        payload: { phoneNumber: phone(n), amount },
      });

    const callback = (
      target: FastifyInstance,
      secret: string,
      checkoutRequestId: string,
      options: Partial<InjectOptions> = {},
    ) =>
      target.inject({
        method: 'POST',
        url: `/api/mpesa/callback/${secret}`,
        headers: { 'content-type': 'application/json', ...options.headers },
        ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
        payload: JSON.stringify(
          successCallback(checkoutRequestId, { amount: 10, phoneNumber: '254710000001' }),
        ),
      });

    const rateLimitKeys = async () =>
      (await database.db.selectFrom('rate_limits').select('key').orderBy('key').execute()).map(
        (row) => row.key,
      );

    describe('item 1: a long callback secret', () => {
      it('delivers callbacks to the longest secret allowed (128 characters), and the payment gets its receipt', async () => {
        const secret = 'Ab9_-'.repeat(26).slice(0, 128);
        const api = await start({}, { secret });
        const { transactionId, checkoutRequestId } = (await pay(api, 1)).json();
        const answer = await callback(api, secret, checkoutRequestId);
        expect(answer.statusCode).toBe(200);
        expect(answer.json()).toEqual({ ResultCode: 0, ResultDesc: 'Accepted' });
        const { data } = (
          await api.inject({ url: `/api/mpesa/transactions/${transactionId}` })
        ).json();
        expect(data).toMatchObject({ status: 'success', mpesaReceiptNumber: 'UF1E26WQJZ' });
      });
    });

    describe('item 5: one client address, which a client cannot choose', () => {
      const SAFARICOM = '196.201.214.200';

      it('through a trusted proxy, the allow-list sees the address the proxy saw, not one the client wrote', async () => {
        const api = await start({ TRUST_PROXY: '10.0.0.5', MPESA_CALLBACK_ALLOWED_IPS: SAFARICOM });
        const { checkoutRequestId } = (await pay(api, 1)).json();
        const viaProxy = (forwardedFor: string, remoteAddress = '10.0.0.5') =>
          callback(api, TEST_CALLBACK_SECRET, checkoutRequestId, {
            headers: { 'x-forwarded-for': forwardedFor },
            remoteAddress,
          });
        // The client wrote Safaricom's address; the proxy appended the client's real one.
        expect((await viaProxy(`${SAFARICOM}, 203.0.113.9`)).statusCode).toBe(403);
        // Not through the proxy at all.
        expect((await viaProxy(SAFARICOM, '203.0.113.9')).statusCode).toBe(403);
        expect((await viaProxy(SAFARICOM)).statusCode).toBe(200);
        const rows = await database.db.selectFrom('callbacks').select('source_ip').execute();
        expect(rows).toEqual([{ source_ip: SAFARICOM }]);
      });

      it('with a hop count, the client is that many addresses from the right', async () => {
        const api = await start({ TRUST_PROXY: '1', MPESA_CALLBACK_ALLOWED_IPS: SAFARICOM });
        const { checkoutRequestId } = (await pay(api, 1)).json();
        const forwarded = (value: string) =>
          callback(api, TEST_CALLBACK_SECRET, checkoutRequestId, {
            headers: { 'x-forwarded-for': value },
            remoteAddress: '10.0.0.5',
          });
        expect((await forwarded(`${SAFARICOM}, 203.0.113.9`)).statusCode).toBe(403);
        expect((await forwarded(`203.0.113.9, ${SAFARICOM}`)).statusCode).toBe(200);
      });

      it('holds the per-address limit however a client varies the header it writes', async () => {
        const api = await start({ TRUST_PROXY: '127.0.0.1', STKPUSH_RATE_LIMIT: '3' });
        const statuses: number[] = [];
        for (let i = 1; i <= 6; i++) {
          const answer = await pay(api, i, {
            headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` },
          });
          statuses.push(answer.statusCode);
        }
        expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
        expect(await rateLimitKeys()).toEqual(['POST /api/mpesa/stkpush|203.0.113.7']);
      });

      it('counts IPv6 clients per /64', async () => {
        const api = await start({ TRUST_PROXY: '127.0.0.1', STKPUSH_RATE_LIMIT: '2' });
        const statuses: number[] = [];
        for (const [i, address] of [
          '2001:db8:1:2::a',
          '2001:db8:1:2:ffff::1',
          '2001:db8:1:2::3',
        ].entries()) {
          statuses.push(
            (await pay(api, i, { headers: { 'x-forwarded-for': address } })).statusCode,
          );
        }
        expect(statuses).toEqual([200, 200, 429]);
        expect(await rateLimitKeys()).toEqual(['POST /api/mpesa/stkpush|2001:db8:1:2::/64']);
      });

      it('takes the socket’s address when the header is not an IP address or too long to store, and answers no 5xx', async () => {
        const api = await start({ TRUST_PROXY: 'true' });
        const odd = ['x'.repeat(250), `fe80::1%${'a'.repeat(100)}`, 'not-an-ip', '999.1.1.1'];
        for (const [i, value] of odd.entries()) {
          const answer = await pay(api, i, { headers: { 'x-forwarded-for': value } });
          expect(answer.statusCode, value).toBe(200);
        }
        const { checkoutRequestId } = (await pay(api, 9)).json();
        const delivered = await callback(api, TEST_CALLBACK_SECRET, checkoutRequestId, {
          headers: { 'x-forwarded-for': 'y'.repeat(250) },
        });
        expect(delivered.statusCode).toBe(200);
        expect(await rateLimitKeys()).toEqual(['POST /api/mpesa/stkpush|127.0.0.1']);
        const rows = await database.db.selectFrom('callbacks').select('source_ip').execute();
        expect(rows).toEqual([{ source_ip: '127.0.0.1' }]);
      });
    });

    describe('item 7: slow clients', () => {
      const SLOW = {
        HTTP_HEADERS_TIMEOUT_MS: '300',
        HTTP_REQUEST_TIMEOUT_MS: '600',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
      };
      const timedOut = {
        status: 408,
        body: {
          success: false,
          code: 'REQUEST_TIMEOUT',
          message: 'The request took too long to arrive',
        },
      };

      it('disconnects a client that sends its headers slowly, or nothing, within the header timeout, while others are served', async () => {
        const port = await listenLocally(await start(SLOW));
        const slow = connect(port);
        slow.socket.write('POST /api/mpesa/stkpush HTTP/1.1\r\nHost: localhost\r\n');
        slow.trickle('X-Slow: 1\r\n', 50);
        const silent = connect(port);
        const health = await fetch(`http://127.0.0.1:${port}/api/health`);
        expect(health.status).toBe(200);
        const [slowMs, silentMs] = await Promise.all([
          closedWithin(slow, 2000),
          closedWithin(silent, 2000),
        ]);
        expect(slowMs).toBeGreaterThanOrEqual(250);
        expect(slowMs).toBeLessThan(1000);
        expect(silentMs).toBeLessThan(1000);
        expect(firstResponse(slow.received())).toEqual(timedOut);
      });

      it('disconnects a client that sends its body slowly, within the request timeout', async () => {
        const port = await listenLocally(await start(SLOW));
        const slow = connect(port);
        slow.socket.write(
          'POST /api/mpesa/stkpush HTTP/1.1\r\nHost: localhost\r\n' +
            'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
        );
        slow.trickle(' ', 50);
        const took = await closedWithin(slow, 3000);
        expect(took).toBeGreaterThanOrEqual(550);
        expect(took).toBeLessThan(1500);
        expect(firstResponse(slow.received())).toEqual(timedOut);
      });

      it('never cuts a request whose body has arrived, however long Daraja then takes', async () => {
        const port = await listenLocally(await start(SLOW, { daraja: acceptingDaraja(1000) }));
        const client = connect(port);
        const body = JSON.stringify({ phoneNumber: phone(1), amount: 10 });
        client.socket.write(
          'POST /api/mpesa/stkpush HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n' +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        // The body comes late, but within the limit; Daraja's second takes the request past it.
        await new Promise((resolve) => setTimeout(resolve, 200));
        client.socket.write(body);
        const took = await closedWithin(client, 5000);
        expect(took).toBeGreaterThan(1000);
        expect(firstResponse(client.received())).toMatchObject({
          status: 200,
          body: { success: true },
        });
      });

      it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
        const port = await listenLocally(await start(SLOW));
        const idle = connect(port);
        idle.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
        const took = await closedWithin(idle, 4000);
        expect(firstResponse(idle.received())).toEqual({ status: 200, body: { status: 'ok' } });
        // Node waits keepAliveTimeoutBuffer (1 s) longer than it tells the client to, so that a
        // client closes first; without the setting it would be 5 s + 1 s.
        expect(took).toBeGreaterThanOrEqual(250);
        expect(took).toBeLessThan(2500);
      });
    });

    describe('item 8: a malformed chunked body', () => {
      it.each(['warn', 'debug'])(
        'is answered in our shape with no log line above debug (LOG_LEVEL=%s)',
        async (level) => {
          const port = await listenLocally(await start({ LOG_LEVEL: level }));
          const client = connect(port);
          client.socket.write(
            'POST /api/mpesa/stkpush HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
              'Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
          );
          expect(await closedWithin(client, 2000)).toBeLessThan(2000);
          // Let whatever the app still does with the dead request happen (and log) first.
          await new Promise((resolve) => setTimeout(resolve, 200));
          const lines = logs
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { level: number; msg: string });
          expect(lines.filter((line) => line.level >= 40)).toEqual([]);
          expect(firstResponse(client.received())).toEqual({
            status: 400,
            body: {
              success: false,
              code: 'BAD_REQUEST',
              message: 'The request could not be read: it is not valid HTTP',
            },
          });
          if (level === 'debug') {
            expect(lines).toContainEqual(
              expect.objectContaining({ level: 20, msg: 'client error' }),
            );
          }
        },
      );
    });

    describe('malformed HTTP from a second attack', () => {
      it('answers a pipelined payment before refusing the garbage behind it', async () => {
        const port = await listenLocally(await start({}, { daraja: acceptingDaraja(500) }));
        const client = connect(port);
        const body = JSON.stringify({ phoneNumber: phone(90), amount: 10 });
        client.socket.write(
          'POST /api/mpesa/stkpush HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
            `Content-Length: ${body.length}\r\n\r\n${body}GARBAGE\r\n\r\n`,
        );
        expect(await closedWithin(client, 3000)).toBeLessThan(3000);
        const raw = client.received();
        expect(firstResponse(raw)).toMatchObject({ status: 200, body: { success: true } });
        expect(raw.slice(raw.indexOf('HTTP/1.1', 1))).toMatch(/^HTTP\/1\.1 400 /);
      });

      it.each([
        [
          'no Host header',
          'GET /api/health HTTP/1.1\r\n\r\n',
          400,
          'BAD_REQUEST',
          'The request has no Host header (HTTP/1.1 requires one)',
        ],
        [
          'an Expect it cannot meet',
          'GET /api/health HTTP/1.1\r\nHost: localhost\r\nExpect: foo\r\n\r\n',
          417,
          'EXPECTATION_FAILED',
          'The request asks for an Expect the server does not support',
        ],
        [
          'CONNECT',
          'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n',
          405,
          'METHOD_NOT_ALLOWED',
          'CONNECT is not supported: this is not a proxy',
        ],
      ])('answers %s in our shape', async (_name, request, status, code, message) => {
        const port = await listenLocally(await start());
        const client = connect(port);
        client.socket.write(request);
        await closedWithin(client, 1000);
        expect(firstResponse(client.received())).toEqual({
          status,
          body: { success: false, code, message },
        });
      });
    });

    describe('item 9: every answer is ours', () => {
      const ours = (code: string, message: string) => ({ success: false, code, message });

      it('answers a path parameter longer than any secret with 414 in our shape', async () => {
        const api = await start();
        for (const url of [
          `/api/mpesa/transactions/${'x'.repeat(129)}`,
          `/api/mpesa/callback/${'x'.repeat(129)}`,
        ]) {
          const answer = await api.inject({
            method: url.includes('callback') ? 'POST' : 'GET',
            url,
          });
          expect(answer.statusCode, url).toBe(414);
          expect(answer.json(), url).toEqual(ours('URL_TOO_LONG', 'The address is too long'));
        }
      });

      it('answers a broken %-escape with 400 in our shape', async () => {
        const answer = await (await start()).inject({ url: '/api/mpesa/transactions/%E0%A4%A' });
        expect(answer.statusCode).toBe(400);
        expect(answer.json()).toEqual(
          ours('BAD_URL', 'The address is not valid: it has a broken %-escape'),
        );
      });

      it('tells a forbidden key from broken JSON', async () => {
        const api = await start();
        const send = (payload: string) =>
          api.inject({
            method: 'POST',
            url: '/api/mpesa/stkpush',
            headers: { 'content-type': 'application/json' },
            payload,
          });
        const forbidden = ours(
          'FORBIDDEN_KEY',
          'The request body must not use the keys "__proto__" or "constructor.prototype"',
        );
        for (const payload of [
          '{"__proto__":{"polluted":true},"phoneNumber":"0712345678","amount":1}',
          '{"constructor":{"prototype":{"polluted":true}},"phoneNumber":"0712345678","amount":1}',
        ]) {
          const answer = await send(payload);
          expect(answer.statusCode).toBe(400);
          expect(answer.json()).toEqual(forbidden);
        }
        const broken = await send('{"phoneNumber":');
        expect(broken.json()).toEqual(ours('INVALID_JSON', 'The request body is not valid JSON'));
      });

      it('answers an empty transaction id as not found', async () => {
        const answer = await (await start()).inject({ url: '/api/mpesa/transactions/' });
        expect(answer.statusCode).toBe(404);
        expect(answer.json()).toEqual(ours('TRANSACTION_NOT_FOUND', 'Transaction not found'));
      });

      it('judges an amount sent as text by the rules of the number', async () => {
        const api = await start();
        for (const amount of ['-5', -5]) {
          const answer = await pay(api, 1, { amount });
          expect(answer.statusCode).toBe(400);
          expect(answer.json()).toEqual({
            ...ours('VALIDATION_ERROR', 'Amount must be at least 1 KES'),
            field: 'amount',
          });
        }
      });

      it('keys the rate-limit counters by route and client', async () => {
        const api = await start();
        await pay(api, 1);
        expect(await rateLimitKeys()).toEqual(['POST /api/mpesa/stkpush|127.0.0.1']);
      });

      it('answers requests that arrive while the app closes with 503 in our shape', async () => {
        const api = await start({}, { daraja: acceptingDaraja(300) });
        const port = await listenLocally(api);
        const client = connect(port);
        const body = JSON.stringify({ phoneNumber: phone(1), amount: 10 });
        client.socket.write(
          'POST /api/mpesa/stkpush HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
            `Content-Length: ${body.length}\r\n\r\n${body}`,
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
        const closing = api.close();
        app = undefined;
        client.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
        await closing;
        expect(await closedWithin(client, 2000)).toBeLessThan(2000);
        const second = client.received().slice(client.received().indexOf('HTTP/1.1', 1));
        expect(firstResponse(client.received()).status).toBe(200);
        expect(firstResponse(second)).toEqual({
          status: 503,
          body: ours('SHUTTING_DOWN', 'The server is restarting. Please try again.'),
        });
      });
    });
  });
}
