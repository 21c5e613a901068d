/**
 * One endpoint cannot hold up another: with ten endpoints that take every request and
 * never answer, the running deliverer (startDeliverer, with the default settings: a round every
 * second, ten seconds for an answer) still tells a healthy endpoint of each payment within two
 * seconds of it being recorded. Stopping it abandons the hung sends at once and gives their claims
 * back, so they are sent again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';
import { testConfig } from '../../test/test-app.ts';
import { startDeliverer } from './deliverer.ts';
import { postWebhook } from './http-post.ts';
import type { Resolve } from './url-guard.ts';
import { anEndpoint } from '../../test/webhooks.fixtures.ts';
import { paymentSucceeded, silentLog } from '../../test/webhook-world.ts';

const HUNG_ENDPOINTS = 10;
const PAYMENTS = 5;
const WITHIN_MS = 2000;

/** A server on 127.0.0.1 that reads every request and never answers. */
async function startHungServer() {
  const server = http.createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const dialect of DIALECTS) {
  describe(`the deliverer with endpoints that never answer (${dialect})`, () => {
    let database: TestDatabase;
    let healthy: Receiver;
    let hung: Awaited<ReturnType<typeof startHungServer>>;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      healthy = await startReceiver([
        (response) => {
          response.writeHead(200);
          response.end('ok');
        },
      ]);
      hung = await startHungServer();
    });
    afterEach(async () => {
      await healthy.close();
      await hung.close();
      await database.destroy();
    });

    it('tells a healthy endpoint of each payment within 2 s, and stops without waiting for the hung ones', async () => {
      const settings = testConfig().webhooks;
      expect(settings).toMatchObject({ intervalMs: 1000, timeoutMs: 10_000 });
      for (let i = 0; i < HUNG_ENDPOINTS; i++)
        await anEndpoint(database.db, { url: `${hung.url}/hung-${i}` });
      await anEndpoint(database.db, { url: `${healthy.url}/healthy` });
      const deliverer = startDeliverer({
        db: database.db,
        now: () => new Date(),
        log: silentLog,
        settings,
      });
      const latencies: number[] = [];
      let stopMs: number;
      try {
        for (let i = 0; i < PAYMENTS; i++) {
          const recorded = performance.now();
          const eventId = await paymentSucceeded(database.db, `p${i}`, new Date());
          const heard = () =>
            healthy.received.some((each) => each.headers['mpesa-event-id'] === eventId);
          while (!heard() && performance.now() - recorded < WITHIN_MS + 500) await sleep(10);
          latencies.push(heard() ? performance.now() - recorded : Infinity);
          await sleep(300);
        }
      } finally {
        const stopping = performance.now();
        await deliverer.stop();
        stopMs = performance.now() - stopping;
      }
      console.info(
        `[${dialect}] healthy endpoint heard of each payment after (ms): ${latencies.map(Math.round).join(', ')}; stop took ${Math.round(stopMs)} ms`,
      );
      expect(Math.max(...latencies)).toBeLessThan(WITHIN_MS);
      // The hung sends were abandoned, not waited out (ten seconds each), and their claims given back.
      expect(stopMs).toBeLessThan(1000);
      const held = await database.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('lease_owner', 'is not', null)
        .execute();
      expect(held).toEqual([]);
      const open = await database.db
        .selectFrom('webhook_deliveries')
        .select(['attempts', 'delivered_at'])
        .where('delivered_at', 'is', null)
        .execute();
      // Each payment's deliveries to the hung endpoints are still to send, none counted as tried.
      expect(open).toHaveLength(HUNG_ENDPOINTS * PAYMENTS);
      expect(open.every((each) => Number(each.attempts) === 0)).toBe(true);
    });

    it('is not held up by endpoints whose names never resolve', async () => {
      const settings = testConfig().webhooks;
      const healthyPort = new URL(healthy.url).port;
      // An attacker's nameserver that never answers for the slow names.
      const resolve: Resolve = (host) =>
        host === 'healthy.example'
          ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
          : new Promise(() => undefined);
      for (let i = 0; i < HUNG_ENDPOINTS; i++)
        await anEndpoint(database.db, { url: `http://slow-${i}.example/hook` });
      await anEndpoint(database.db, { url: `http://healthy.example:${healthyPort}/healthy` });
      const deliverer = startDeliverer({
        db: database.db,
        now: () => new Date(),
        log: silentLog,
        settings,
        resolve,
      });
      let heardAfter = Infinity;
      let stopMs: number;
      try {
        const recorded = performance.now();
        const eventId = await paymentSucceeded(database.db, 'p-dns', new Date());
        const heard = () =>
          healthy.received.some((each) => each.headers['mpesa-event-id'] === eventId);
        while (!heard() && performance.now() - recorded < WITHIN_MS + 500) await sleep(10);
        if (heard()) heardAfter = performance.now() - recorded;
      } finally {
        const stopping = performance.now();
        await deliverer.stop();
        stopMs = performance.now() - stopping;
      }
      expect(heardAfter).toBeLessThan(WITHIN_MS);
      expect(stopMs).toBeLessThan(1000);
    });
  });
}

describe('one attempt whose name never resolves', () => {
  const never: Resolve = () => new Promise(() => undefined);
  const attempt = (signal?: AbortSignal) =>
    postWebhook({
      url: 'http://never.example/hook',
      body: '{}',
      headers: {},
      timeoutMs: 200,
      policy: { allowPrivateUrls: false, httpsOnly: false },
      resolve: never,
      ...(signal ? { signal } : {}),
    });

  it('fails at its deadline, as an answer that never came', async () => {
    const started = performance.now();
    const result = await attempt();
    expect(result).toMatchObject({ status: null, error: 'No answer within 200 ms.' });
    expect(result.abandoned).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('is abandoned at once when the deliverer stops', async () => {
    const stopping = new AbortController();
    const result = attempt(stopping.signal);
    stopping.abort();
    expect(await result).toMatchObject({ status: null, abandoned: true });
  });
});
