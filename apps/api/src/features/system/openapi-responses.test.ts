/**
 * The description's examples are the API's real answers: each error the description shows is
 * provoked here, and the answer must be one of the examples documented for its route and status,
 * word for word. (Those made by the functions that make the real errors, such as the refusals of
 * M-PESA in initiation-errors.ts, are the same by construction; this covers the rest.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DarajaError } from '../../daraja/daraja-error.ts';
import type { DarajaClient, StkPushAck } from '../../daraja/daraja-client.ts';
import { CALLBACK_PATH, createTestApp } from '../../test/test-app.ts';
import { closedWithin, connect, firstResponse, listenLocally } from '../../test/raw-http.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { SAMPLE, SAMPLE_CALLBACK } from '../payments/payments.examples.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};

const ack = (n: number): StkPushAck => ({
  merchantRequestId: `m-${n}`,
  checkoutRequestId: `ws_CO_answers_${n}`,
  responseCode: '0',
  responseDescription: 'Success. Request accepted for processing',
  customerMessage: 'Success. Request accepted for processing',
});

/** A Daraja that does what the test says: accept, wait to be let go, or never answer. */
function scriptedDaraja() {
  let pushes = 0;
  const held: Array<() => void> = [];
  const daraja = {
    behaviour: 'accept' as 'accept' | 'hold' | 'no answer',
    release: () => held.splice(0).forEach((go) => go()),
    client: {
      stkPush: async () => {
        pushes++;
        if (daraja.behaviour === 'no answer') {
          throw new DarajaError('unknown', 'the request timed out after 20000 ms');
        }
        if (daraja.behaviour === 'hold') await new Promise<void>((go) => held.push(go));
        return ack(pushes);
      },
      stkQuery: async () => ({ state: 'pending', message: '' }),
    } satisfies DarajaClient,
  };
  return daraja;
}

for (const dialect of DIALECTS) {
  describe(`the described answers are the real ones (${dialect})`, () => {
    let database: TestDatabase | undefined;
    let app: FastifyInstance | undefined;
    afterEach(async () => {
      await app?.close();
      await database?.destroy();
      app = undefined;
      database = undefined;
    });

    async function start(env: Record<string, string> = {}) {
      const daraja = scriptedDaraja();
      database = await createTestDatabase(dialect);
      ({ app } = await createTestApp({ database, daraja: daraja.client, env }));
      const described = (await app.inject('/api/openapi.json')).json();
      return { app, daraja, described: obj(described.paths) };
    }

    /** The examples documented for an operation's status. */
    const examples = (paths: Json, method: string, path: string, status: number) =>
      Object.values(obj(obj(obj(obj(obj(obj(paths[path])[method]).responses)[status]).content)))
        .flatMap((media) => Object.values(obj(obj(media).examples)))
        .map((example) => obj(example).value);

    /** The answer is documented for its status, word for word (a saved payment's id aside). */
    function expectDocumented(
      paths: Json,
      method: string,
      path: string,
      answer: LightMyRequestResponse,
    ) {
      const body = answer.json();
      const shown =
        'transactionId' in body ? { ...body, transactionId: SAMPLE.transactionId } : body;
      expect(examples(paths, method, path, answer.statusCode)).toContainEqual(shown);
    }

    const pay = (api: FastifyInstance, body: unknown, headers: Record<string, string> = {}) =>
      api.inject({ method: 'POST', url: '/api/mpesa/stkpush', payload: body as object, headers });
    const payment = (n: number) => ({ phoneNumber: `07${String(10_000_000 + n)}`, amount: 10 + n });
    const STKPUSH = ['post', '/api/mpesa/stkpush'] as const;

    it('the refusals of a payment request the client can cause', async () => {
      const { app: api, described } = await start();
      const raw = (payload: string, contentType = 'application/json') =>
        api.inject({
          method: 'POST',
          url: '/api/mpesa/stkpush',
          headers: { 'content-type': contentType },
          payload,
        });
      const answers = [
        await pay(api, { phoneNumber: '12345', amount: 10 }),
        await raw('{"phoneNumber":'),
        await raw(''),
        await raw('{"__proto__":{"x":1},"phoneNumber":"0712345678","amount":10}'),
        await raw(JSON.stringify({ ...payment(1), description: 'x'.repeat(20_000) })),
        await raw('<phoneNumber>0712345678</phoneNumber>', 'application/xml'),
        await pay(api, payment(1), { 'idempotency-key': 'not visible ascii' }),
      ];
      expect(answers.map((answer) => answer.json().code)).toEqual([
        'VALIDATION_ERROR',
        'INVALID_JSON',
        'INVALID_BODY',
        'FORBIDDEN_KEY',
        'BODY_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE',
        'INVALID_IDEMPOTENCY_KEY',
      ]);
      for (const answer of answers) expectDocumented(described, ...STKPUSH, answer);
    });

    it('an Idempotency-Key reused for another payment, or still in use', async () => {
      const { app: api, daraja, described } = await start();
      const key = { 'idempotency-key': 'order-1042-attempt-1' };
      expect((await pay(api, payment(1), key)).statusCode).toBe(200);
      const reused = await pay(api, payment(2), key);
      expect(reused.statusCode).toBe(422);
      expectDocumented(described, ...STKPUSH, reused);

      daraja.behaviour = 'hold';
      const other = { 'idempotency-key': 'order-1043-attempt-1' };
      const first = pay(api, payment(3), other);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const inUse = await pay(api, payment(3), other);
      daraja.release();
      expect((await first).statusCode).toBe(200);
      expect(inUse.statusCode).toBe(409);
      expectDocumented(described, ...STKPUSH, inUse);
    });

    it('the limits, a busy phone, and M-PESA not answering', async () => {
      const { app: api, daraja, described } = await start({ STKPUSH_RATE_LIMIT: '2' });
      expect((await pay(api, payment(1))).statusCode).toBe(200);
      const busy = await pay(api, payment(1));
      expect(busy.json().code).toBe('PHONE_BUSY');
      expectDocumented(described, ...STKPUSH, busy);

      daraja.behaviour = 'no answer';
      const noAnswer = await pay(api, payment(2));
      expect(noAnswer.statusCode).toBe(504);
      expectDocumented(described, ...STKPUSH, noAnswer);

      const limited = await pay(api, payment(3));
      expect(limited.json().code).toBe('RATE_LIMITED');
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      expectDocumented(described, ...STKPUSH, limited);

      // Twenty requests of any kind a window by default (ten times the payment limit).
      let flood: LightMyRequestResponse | undefined;
      for (let n = 0; n < 20 && flood?.statusCode !== 429; n++) flood = await pay(api, {});
      expect(flood?.json().code).toBe('TOO_MANY_REQUESTS');
      expect(flood?.headers['retry-after']).toMatch(/^\d+$/);
      if (flood) expectDocumented(described, ...STKPUSH, flood);
    });

    it('the history’s and the callback’s refusals, and their own answers', async () => {
      const { app: api, described } = await start();
      const list = await api.inject('/api/mpesa/transactions?cursor=not-one-of-ours');
      expectDocumented(described, 'get', '/api/mpesa/transactions', list);
      const byId = '/api/mpesa/transactions/{id}';
      for (const url of [
        '/api/mpesa/transactions/nope',
        '/api/mpesa/transactions/%E0%A4%A',
        `/api/mpesa/transactions/${'x'.repeat(200)}`,
      ]) {
        expectDocumented(described, 'get', byId, await api.inject(url));
      }
      const callback = '/api/mpesa/callback/{secret}';
      const deliver = (url: string, payload: unknown) =>
        api.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(payload),
        });
      const answers = [
        await deliver(CALLBACK_PATH, SAMPLE_CALLBACK),
        await deliver(CALLBACK_PATH, { not: 'a callback' }),
        await deliver('/api/mpesa/callback/wrong-secret', SAMPLE_CALLBACK),
      ];
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 400, 404]);
      for (const answer of answers) expectDocumented(described, 'post', callback, answer);
      expectDocumented(described, 'get', '/api/ready', await api.inject('/api/ready'));
    });

    it('a callback from an address not on the allow-list', async () => {
      const { app: api, described } = await start({
        MPESA_CALLBACK_ALLOWED_IPS: '196.201.214.200',
      });
      const answer = await api.inject({ method: 'POST', url: CALLBACK_PATH, payload: {} });
      expect(answer.statusCode).toBe(403);
      expectDocumented(described, 'post', '/api/mpesa/callback/{secret}', answer);
    });

    it('a request that arrives while the server shuts down', async () => {
      const { app: api, daraja, described } = await start();
      // A payment in flight keeps the connection open while the server closes; the next request
      // on it arrives during the close.
      daraja.behaviour = 'hold';
      const client = connect(await listenLocally(api));
      const body = JSON.stringify(payment(1));
      client.socket.write(
        'POST /api/mpesa/stkpush HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          `Content-Length: ${body.length}\r\n\r\n${body}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const closing = api.close();
      app = undefined;
      client.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 50));
      daraja.release();
      await closing;
      await closedWithin(client, 2000);
      const second = client.received().slice(client.received().indexOf('HTTP/1.1', 1));
      const answer = firstResponse(second);
      expect(answer.status).toBe(503);
      expect(examples(described, 'get', '/api/health', 503)).toContainEqual(answer.body);
    });
  });
}
