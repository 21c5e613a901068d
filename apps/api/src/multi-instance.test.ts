/**
 * Two API instances on one PostgreSQL: payments, duplicate callbacks delivered to different
 * instances, idempotency keys reused across instances, the per-phone and per-address limits, and
 * reconciliation running in both at once. Nothing is processed twice, no prompt is sent twice, and
 * the history is the same from either instance. Needs TEST_DATABASE_URL (`npm test` says when it
 * is skipped; CI always runs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL, createTestDatabase, type TestDatabase } from './test/test-db.ts';
import { startSimulator, type RunningSimulator } from './test/simulator.ts';
import { freePort, startApiProcess, type ApiProcess } from './test/api-process.ts';
import { successCallback } from './test/callbacks.ts';

const SECRET = 'two-instance-secret-0123456789';

describe.skipIf(!TEST_DATABASE_URL)('two API instances on one PostgreSQL', () => {
  let simulator: RunningSimulator;
  let database: TestDatabase;
  let a: ApiProcess;
  let b: ApiProcess;
  let address = 0;

  beforeAll(async () => {
    simulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '300' });
    database = await createTestDatabase('postgres');
    const env = (port: number) => ({
      DATABASE_URL: TEST_DATABASE_URL!,
      DATABASE_SCHEMA: database.schema!,
      DATABASE_POOL_SIZE: '4',
      MPESA_BASE_URL: simulator.url,
      MPESA_CALLBACK_SECRET: SECRET,
      MPESA_CALLBACK_URL: `http://127.0.0.1:${port}`,
      RECONCILE_AFTER_S: '1',
      RECONCILE_INTERVAL_MS: '100',
      RECONCILE_MAX_BACKOFF_S: '1',
      STKPUSH_RATE_LIMIT: '3',
      // The test plays the proxy in front of both instances: its X-Forwarded-For is the client.
      TRUST_PROXY: '127.0.0.1',
      DATA_DIR: '/tmp',
    });
    const [portA, portB] = [await freePort(), await freePort()];
    [a, b] = await Promise.all([
      startApiProcess(env(portA), portA),
      startApiProcess(env(portB), portB),
    ]);
  });

  afterAll(async () => {
    for (const api of [a, b]) {
      if (api && api.child.exitCode === null) {
        api.child.kill('SIGTERM');
        await api.exited;
      }
    }
    await simulator?.close();
    await database?.destroy();
  });

  /** Each test pays from its own client address, so the per-address limit only bites where meant. */
  const nextAddress = () => `198.51.100.${++address}`;

  async function pay(
    api: ApiProcess,
    phone: string,
    {
      amount = 10,
      key,
      from = nextAddress(),
    }: { amount?: number; key?: string; from?: string } = {},
  ) {
    const response = await fetch(`${api.url}/api/mpesa/stkpush`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Forwarded-For': from,
        ...(key ? { 'Idempotency-Key': key } : {}),
      },
      body: JSON.stringify({ phoneNumber: phone, amount }),
    });
    return { status: response.status, body: await response.json() };
  }

  async function read(api: ApiProcess, path: string) {
    return (await fetch(`${api.url}${path}`)).json();
  }

  async function waitUntilFinal(ids: string[]) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const statuses = await Promise.all(
        ids.map(async (id) => (await read(a, `/api/mpesa/transactions/${id}`)).data.status),
      );
      if (statuses.every((status) => status !== 'pending')) return statuses;
      if (Date.now() > deadline) throw new Error(`still pending: ${statuses.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('takes payments on both and shows the same history from either', async () => {
    const phones = Array.from({ length: 12 }, (_, i) => `0712000${String(i).padStart(3, '0')}`);
    phones.forEach((phone, i) =>
      simulator.prompts.setNext(`254${phone.slice(1)}`, {
        outcome: { kind: 'result', resultCode: i % 2 ? '0' : '1' },
      }),
    );
    const answers = await Promise.all(phones.map((phone, i) => pay(i % 2 ? a : b, phone)));
    expect(answers.map((answer) => answer.status)).toEqual(phones.map(() => 200));
    const statuses = await waitUntilFinal(answers.map((answer) => answer.body.transactionId));
    expect(statuses).toEqual(phones.map((_, i) => (i % 2 ? 'success' : 'failed')));
    expect(await read(a, '/api/mpesa/transactions?limit=200')).toEqual(
      await read(b, '/api/mpesa/transactions?limit=200'),
    );
  });

  it('applies a callback delivered to both instances once, and records the rest as duplicates', async () => {
    simulator.prompts.setNext('254712100001', { outcome: { kind: 'manual' } });
    const { body } = await pay(a, '0712100001', { amount: 33 });
    const callback = JSON.stringify(
      successCallback(body.checkoutRequestId, { amount: 33, phoneNumber: '254712100001' }),
    );
    const deliveries = await Promise.all(
      [a, b, a, b, a, b].map((api) =>
        fetch(`${api.url}/api/mpesa/callback/${SECRET}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: callback,
        }),
      ),
    );
    expect(deliveries.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const outcomes = await database.db
      .selectFrom('callbacks')
      .select('outcome')
      .where('checkout_request_id', '=', body.checkoutRequestId)
      .execute();
    expect(outcomes.filter((row) => row.outcome === 'applied')).toHaveLength(1);
    expect(outcomes.filter((row) => row.outcome === 'duplicate')).toHaveLength(5);
    const transitions = await database.db
      .selectFrom('transaction_events')
      .select(['from_status', 'to_status'])
      .where('transaction_id', '=', body.transactionId)
      .where('source', '=', 'callback')
      .whereRef('from_status', '!=', 'to_status')
      .execute();
    expect(transitions).toEqual([{ from_status: 'pending', to_status: 'success' }]);
  });

  it('sends one prompt for an Idempotency-Key used on both instances at once', async () => {
    simulator.prompts.setNext('254712100002', { outcome: { kind: 'manual' } });
    const from = nextAddress();
    const answers = await Promise.all(
      [a, b].map((api) => pay(api, '0712100002', { key: 'shared-key-1', from })),
    );
    expect(simulator.prompts.list({ phoneNumber: '254712100002' })).toHaveLength(1);
    const ok = answers.filter((answer) => answer.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    const replay = await pay(b, '0712100002', { key: 'shared-key-1', from: nextAddress() });
    expect(replay).toEqual(ok[0]);
  });

  it('lets only one instance prompt a phone at a time', async () => {
    simulator.prompts.setNext('254712100003', { outcome: { kind: 'manual' } });
    const answers = await Promise.all([a, b, a, b].map((api) => pay(api, '0712100003')));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429, 429, 429]);
    expect(simulator.prompts.list({ phoneNumber: '254712100003' })).toHaveLength(1);
  });

  it('counts the per-address limit across instances', async () => {
    const from = nextAddress();
    const statuses = [];
    for (const [api, phone] of [
      [a, '0712200001'],
      [b, '0712200002'],
      [a, '0712200003'],
      [b, '0712200004'],
    ] as const) {
      statuses.push((await pay(api, phone, { from })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('reconciles lost callbacks in both instances at once without querying any payment twice', async () => {
    const phones = Array.from({ length: 8 }, (_, i) => `07123000${String(i).padStart(2, '0')}`);
    for (const phone of phones) {
      simulator.prompts.setNext(`254${phone.slice(1)}`, { outcome: { kind: 'paid-no-callback' } });
    }
    const answers = await Promise.all(
      phones.map((phone, i) => pay(i % 2 ? a : b, phone, { amount: 12 })),
    );
    const ids = answers.map((answer) => answer.body.transactionId as string);
    expect(await waitUntilFinal(ids)).toEqual(phones.map(() => 'success'));

    const checkoutIds = answers.map((answer) => answer.body.checkoutRequestId as string);
    const queries = simulator.log
      .list({ kind: 'request' })
      .filter((entry) => entry.kind === 'request' && entry.path === '/mpesa/stkpushquery/v1/query')
      .map((entry) =>
        entry.kind === 'request'
          ? (entry.requestBody as { CheckoutRequestID: string }).CheckoutRequestID
          : '',
      );
    for (const id of checkoutIds) expect(queries.filter((query) => query === id)).toHaveLength(1);
    const queryEvents = await database.db
      .selectFrom('transaction_events')
      .select('transaction_id')
      .where('transaction_id', 'in', ids)
      .where('source', '=', 'query')
      .execute();
    expect(queryEvents).toHaveLength(ids.length);
  });
});
