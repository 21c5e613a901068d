/**
 * The fault rules (PUT /_sim/faults): Daraja's refusals, a dropped connection, a proxy's 502 page
 * and added latency on OAuth, push and query; dropped, duplicated and late callbacks; a seed that
 * repeats a run; refusals of rules that make no sense.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REFUSALS, type RefusalName } from './catalogue.ts';
import type { Operation } from './fault-rules.ts';
import type { FaultRule } from './faults.ts';
import {
  pushBody,
  queryBody,
  startReceiver,
  startSimulator,
  type Harness,
  type Receiver,
} from './test/harness.ts';

let sim: Harness;
let bearer: string;
let receiver: Receiver;

const BASIC = `Basic ${Buffer.from('key:secret').toString('base64')}`;

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  sim.faults.clear();
  sim.prompts.reset();
  sim.log.clear();
  bearer = (await request('oauth')).json().access_token;
  receiver = await startReceiver();
  return () => receiver.close();
});

const control = (url: string, method: 'GET' | 'PUT' | 'DELETE' | 'POST', payload?: unknown) =>
  sim.app.inject({
    method,
    url: `/_sim${url}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function setRules(rules: FaultRule[], seed = 1) {
  const answer = await control('/faults', 'PUT', { seed, rules });
  expect(answer.statusCode).toBe(200);
}

/** One request of an operation, as a client sends it (through inject: no socket). */
function request(operation: Exclude<Operation, 'callback'>, phone = '254708374149') {
  if (operation === 'oauth') {
    return sim.app.inject({
      url: '/oauth/v1/generate?grant_type=client_credentials',
      headers: { authorization: BASIC },
    });
  }
  const url =
    operation === 'stkpush' ? '/mpesa/stkpush/v1/processrequest' : '/mpesa/stkpushquery/v1/query';
  return sim.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    payload:
      operation === 'stkpush'
        ? pushBody({ PartyA: phone, PhoneNumber: phone }, receiver.url)
        : queryBody('ws_CO_00000000000000000708374149'),
  });
}

async function until(done: () => boolean, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const REQUEST_OPERATIONS = ['oauth', 'stkpush', 'query'] as const;

describe('the rules themselves', () => {
  it('are stored with their seed, listed, and forgotten on DELETE and on reset', async () => {
    const example = {
      seed: 7,
      rules: [
        { operation: 'stkpush', probability: 0.2, error: 'spike-arrest', latencyMs: [100, 300] },
      ],
    };
    const put = await control('/faults', 'PUT', example);
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual(example);
    expect((await control('/faults', 'GET')).json()).toEqual(example);
    expect((await control('/info', 'GET')).json()).toMatchObject({ faultRules: 1 });

    const deleted = await control('/faults', 'DELETE');
    expect(deleted.statusCode).toBe(204);
    expect((await control('/faults', 'GET')).json().rules).toEqual([]);

    await control('/faults', 'PUT', example);
    expect((await control('/reset', 'POST')).statusCode).toBe(204);
    expect((await control('/faults', 'GET')).json().rules).toEqual([]);
  });

  it('choose a seed when none is given, and show it', async () => {
    const put = await control('/faults', 'PUT', {
      rules: [{ operation: 'oauth', probability: 1, latencyMs: [0, 0] }],
    });
    expect(put.statusCode).toBe(200);
    expect(Number.isInteger(put.json().seed)).toBe(true);
  });

  it.each([
    [
      { rules: [{ operation: 'stkpush', probability: 0, error: 'busy' }] },
      'body/rules/0/probability must be more than 0',
    ],
    [
      { rules: [{ operation: 'b2pochi', probability: 1, error: 'busy' }] },
      'body/rules/0/operation must be one of oauth, stkpush, query, qrcode, c2bregister, c2bsimulate, b2c, b2b, transactionstatus, accountbalance, reversal, callback',
    ],
    [
      { rules: [{ operation: 'stkpush', probability: 1, error: 'late' }] },
      'body/rules/0/error "late" is not an error for stkpush',
    ],
    [
      { rules: [{ operation: 'callback', probability: 1, error: 'gateway' }] },
      'body/rules/0/error "gateway" is not an error for callback',
    ],
    [
      { rules: [{ operation: 'query', probability: 1 }] },
      'body/rules/0/error a rule needs an error, a latencyMs, or both',
    ],
    [
      { rules: [{ operation: 'query', probability: 1, latencyMs: [300, 100] }] },
      'body/rules/0/latencyMs must be [lowest, highest]',
    ],
    [
      { rules: [{ operation: 'oauth', probability: 1, latencyMs: [0, 700_000] }] },
      'body/rules/0/latencyMs/1 must be a whole number of milliseconds from 0 to 600000',
    ],
    [
      { rules: [{ operation: 'oauth', probability: 1, latencyMs: [1e20, 1e20] }] },
      'body/rules/0/latencyMs/0 must be a whole number of milliseconds from 0 to 600000',
    ],
    [
      { rules: [{ operation: 'oauth', probability: 1, latencyMs: 100 }] },
      'body/rules/0/latencyMs must be [lowest, highest] in milliseconds',
    ],
    [{ seed: 1.5, rules: [] }, 'body/seed must be a whole number from 0 to 4294967295'],
    [{ seed: -1, rules: [] }, 'body/seed must be a whole number from 0 to 4294967295'],
    [{ rules: 'all' }, 'body/rules '],
    [[], 'body must be a JSON object'],
  ])('refuse %j with a 400 naming the field', async (body, named) => {
    await setRules([{ operation: 'oauth', probability: 1, error: 'busy' }]);
    const answer = await control('/faults', 'PUT', body);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: expect.stringContaining(named) });
    // The rules there were stay.
    expect((await control('/faults', 'GET')).json().rules).toHaveLength(1);
  });

  it('say back an overlong error name shortened, not whole', async () => {
    const answer = await control('/faults', 'PUT', {
      rules: [{ operation: 'oauth', probability: 1, error: 'z'.repeat(100_000) }],
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toBe(
      `body/rules/0/error "${'z'.repeat(40)}…" is not an error for oauth (one of busy, spike-arrest, quota, internal-error, drop, lose-answer, gateway)`,
    );
  });

  it('name an unknown key, and a body that is no object, as the body’s', async () => {
    const unknown = await control('/faults', 'PUT', { rules: [], extra: 1 });
    expect(unknown.json()).toEqual({ error: 'body Unrecognized key: "extra"' });
    const none = await sim.app.inject({
      method: 'PUT',
      url: '/_sim/faults',
      headers: { 'content-type': 'application/json' },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ error: 'body must be a JSON object' });
  });

  it.each([
    ['POST', '/_sim/reset'],
    ['DELETE', '/_sim/faults'],
    ['POST', '/_sim/tokens/expire'],
  ] as const)(
    'take %s %s with no body even when it says Content-Type: application/json',
    async (method, url) => {
      const answer = await sim.app.inject({
        method,
        url,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.statusCode).toBe(204);
    },
  );

  it('refuse malformed JSON in the control API’s envelope', async () => {
    const answer = await sim.app.inject({
      method: 'PUT',
      url: '/_sim/faults',
      headers: { 'content-type': 'application/json' },
      payload: '{"rules": [',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: expect.stringContaining('not valid JSON') });
  });
});

describe('request faults', () => {
  const cases = REQUEST_OPERATIONS.flatMap((operation) =>
    (Object.keys(REFUSALS) as RefusalName[]).map((error) => [operation, error] as const),
  );

  it.each(cases)('%s: %s answers as Daraja’s refusal does', async (operation, error) => {
    await setRules([{ operation, probability: 1, error }]);
    const answer = await request(operation);
    const [status, errorCode, errorMessage] = REFUSALS[error];
    expect(answer.statusCode).toBe(status);
    expect(answer.json()).toEqual({ requestId: expect.any(String), errorCode, errorMessage });
    expect(sim.prompts.list()).toEqual([]);
  });

  it.each(REQUEST_OPERATIONS)(
    '%s: gateway answers a 502 page that is not Daraja’s JSON',
    async (operation) => {
      await setRules([{ operation, probability: 1, error: 'gateway' }]);
      const answer = await request(operation);
      expect(answer.statusCode).toBe(502);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.body).toContain('<h1>502 Bad Gateway</h1>');
      expect(() => JSON.parse(answer.body)).toThrow();
      expect(sim.log.list({ kind: 'request' })[0]).toMatchObject({ status: 502 });
    },
  );

  it.each(REQUEST_OPERATIONS)(
    '%s: drop closes the connection with no answer, and the log says so',
    async (operation) => {
      await setRules([{ operation, probability: 1, error: 'drop' }]);
      const url = {
        oauth: '/oauth/v1/generate?grant_type=client_credentials',
        stkpush: '/mpesa/stkpush/v1/processrequest',
        query: '/mpesa/stkpushquery/v1/query',
      }[operation];
      const answered = fetch(`${sim.url}${url}`, {
        method: operation === 'oauth' ? 'GET' : 'POST',
        headers:
          operation === 'oauth'
            ? { Authorization: BASIC }
            : { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
        body: operation === 'oauth' ? undefined : JSON.stringify(pushBody({}, receiver.url)),
      });
      await expect(answered).rejects.toThrow();
      expect(sim.log.list({ kind: 'request' })[0]).toMatchObject({
        path: url,
        status: null,
        responseBody: null,
      });
      expect(sim.prompts.list()).toEqual([]);
    },
  );

  it('lose-answer carries the push out, then closes the connection before its answer leaves', async () => {
    await setRules([{ operation: 'stkpush', probability: 1, error: 'lose-answer' }]);
    const answered = fetch(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(pushBody({}, receiver.url)),
    });
    await expect(answered).rejects.toThrow();
    // Unlike `drop`, the prompt is on the phone: only the acknowledgement was lost.
    expect(sim.prompts.list()).toHaveLength(1);
    expect(sim.log.list({ kind: 'request' })[0]).toMatchObject({
      path: '/mpesa/stkpush/v1/processrequest',
      status: null,
      responseBody: null,
    });
  });

  it.each(REQUEST_OPERATIONS)(
    '%s: latency alone delays the usual answer by a fixed [n, n]',
    async (operation) => {
      await setRules([{ operation, probability: 1, latencyMs: [300, 300] }]);
      const started = performance.now();
      const answer = await request(operation);
      expect(performance.now() - started).toBeGreaterThanOrEqual(295);
      if (operation === 'query') {
        expect(answer.json().errorMessage).toBe('Bad Request - Invalid CheckoutRequestID');
      } else {
        expect(answer.statusCode).toBe(200);
      }
    },
  );

  it('waits the latency before the error when a rule has both', async () => {
    await setRules([{ operation: 'oauth', probability: 1, error: 'quota', latencyMs: [250, 250] }]);
    const started = performance.now();
    const answer = await request('oauth');
    expect(performance.now() - started).toBeGreaterThanOrEqual(245);
    expect(answer.json().errorCode).toBe('500.003.03');
  });

  it('are drawn before the request is looked at, and only for their operation', async () => {
    await setRules([{ operation: 'stkpush', probability: 1, error: 'spike-arrest' }]);
    const unauthorized = await sim.app.inject({
      method: 'POST',
      url: '/mpesa/stkpush/v1/processrequest',
      payload: '{not json',
    });
    expect(unauthorized.json().errorMessage).toBe('Error Occurred: Spike Arrest Violation');
    expect((await request('oauth')).statusCode).toBe(200);
    expect((await request('query')).json().errorMessage).toBe(
      'Bad Request - Invalid CheckoutRequestID',
    );
  });

  it('repeat a run for the same seed and the same traffic', async () => {
    const run = async (seed: number) => {
      await setRules([{ operation: 'oauth', probability: 0.5, error: 'busy' }], seed);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await request('oauth')).statusCode);
      return statuses;
    };
    const first = await run(7);
    expect(first).toContain(200);
    expect(first).toContain(500);
    expect(await run(7)).toEqual(first);
    expect(await run(8)).not.toEqual(first);
  });

  it('apply at about their probability', async () => {
    await setRules([{ operation: 'oauth', probability: 0.25, error: 'internal-error' }], 42);
    let refused = 0;
    for (let i = 0; i < 400; i++) if ((await request('oauth')).statusCode === 500) refused++;
    expect(refused).toBeGreaterThan(70);
    expect(refused).toBeLessThan(130);
  });
});

describe('callback faults', () => {
  /** A push to the number that pays at once (SIM_CALLBACK_DELAY_MS, 50 ms here), ended. */
  async function paidPush() {
    const answer = await request('stkpush', '254700000000');
    expect(answer.statusCode).toBe(200);
    const id = answer.json().CheckoutRequestID as string;
    await until(() => sim.prompts.get(id)?.state === 'completed');
    return id;
  }
  const advance = (seconds: number) => control('/clock/advance', 'POST', { seconds });

  it('drop: the callback is never delivered', async () => {
    await setRules([{ operation: 'callback', probability: 1, error: 'drop' }]);
    const id = await paidPush();
    expect(sim.prompts.get(id)).toMatchObject({ resultCode: '0', callback: 'withheld' });
    await pause(200);
    expect(receiver.received).toEqual([]);
  });

  it('duplicate: the callback is delivered twice, the same', async () => {
    await setRules([{ operation: 'callback', probability: 1, error: 'duplicate' }]);
    await paidPush();
    await receiver.waitFor(2);
    await pause(200);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.body).toEqual(receiver.received[0]?.body);
  });

  it('late: the callback comes 120 s later, on the simulator’s clock', async () => {
    await setRules([{ operation: 'callback', probability: 1, error: 'late' }]);
    const id = await paidPush();
    await pause(200);
    expect(receiver.received).toEqual([]);
    await advance(110);
    await pause(200);
    expect(receiver.received).toEqual([]);
    await advance(10);
    await receiver.waitFor(1);
    // Delivered once the receiver's answer is back, a moment after the receiver has the callback.
    await expect.poll(() => sim.prompts.get(id)?.callback).toBe('delivered');
  });

  it('late with a latency: the callback comes that much later', async () => {
    await setRules([
      { operation: 'callback', probability: 1, error: 'late', latencyMs: [30_000, 30_000] },
    ]);
    await paidPush();
    await advance(25);
    await pause(200);
    expect(receiver.received).toEqual([]);
    await advance(5);
    await receiver.waitFor(1);
  });

  it('latency alone delays the callback, once', async () => {
    await setRules([{ operation: 'callback', probability: 1, latencyMs: [5_000, 5_000] }]);
    await paidPush();
    await pause(200);
    expect(receiver.received).toEqual([]);
    await advance(5);
    await receiver.waitFor(1);
    await pause(200);
    expect(receiver.received).toHaveLength(1);
  });

  it('add up with a number’s own fault: copies and delays both count', async () => {
    await control('/numbers/0700000000/next', 'PUT', {
      outcome: '0',
      fault: { duplicates: 1, delayMs: 10_000 },
    });
    await setRules([
      { operation: 'callback', probability: 1, error: 'duplicate', latencyMs: [5_000, 5_000] },
    ]);
    await paidPush();
    await advance(10);
    await pause(200);
    expect(receiver.received).toEqual([]);
    await advance(5);
    await receiver.waitFor(3);
  });

  it('a number’s own drop wins over a rule’s duplicate', async () => {
    await control('/numbers/0700000000/next', 'PUT', { outcome: '0', fault: { drop: true } });
    await setRules([{ operation: 'callback', probability: 1, error: 'duplicate' }]);
    const id = await paidPush();
    expect(sim.prompts.get(id)?.callback).toBe('withheld');
    await pause(200);
    expect(receiver.received).toEqual([]);
  });
});
