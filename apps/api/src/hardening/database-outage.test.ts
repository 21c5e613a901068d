/**
 * The database goes away and comes back. Two API processes share a PostgreSQL cluster
 * of this file's own (test/private-postgres.ts: the shared server other test files use is never
 * stopped) and take a stream of payments, callbacks and reads while every database connection is
 * cut, then while the database is stopped and started again, then while it hangs (SIGSTOP).
 * Neither process dies; every answer is a normal one or our 503 DATABASE_UNAVAILABLE with a
 * Retry-After, never a 500 or a dropped connection; no acknowledged payment and no accepted
 * callback is lost; and both serve again on their own. Needs TEST_DATABASE_URL (the PostgreSQL half
 * of the suite) and PostgreSQL's server binaries (skipped, saying why, unless REQUIRE_POSTGRES_TESTS=1).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../test/test-db.ts';
import { startSimulator, type RunningSimulator } from '../test/simulator.ts';
import { freePort, startApiProcess } from '../test/api-process.ts';
import { failureCallback, successCallback } from '../test/callbacks.ts';
import {
  privatePostgresUnavailable,
  startPrivatePostgres,
  type PrivatePostgres,
} from '../test/private-postgres.ts';
import {
  answerFault,
  callbackReceipt,
  checkoutIdOf,
  isDatabaseUnavailable,
  outputHead,
  sleep,
  type Answer,
  type Instance,
  type Payment,
  type Phase,
  type SentCallback,
} from '../test/outage-answers.ts';

const SECRET = 'database-outage-secret-0123456789';
const CALLBACK_PATH = `/api/mpesa/callback/${SECRET}`;
/** How long both instances have to serve again, on their own, once the database is back. */
const RECOVERY_MS = 20_000;
/** While the database hangs: the connect timeout, the statement timeout, and a margin. */
const HUNG_ANSWER_MS = 5000;
/** How long a request waits while the database hangs before it counts as unanswered. */
const HUNG_WAIT_MS = 8000;
const unavailable = TEST_DATABASE_URL ? privatePostgresUnavailable() : undefined;

describe.skipIf(!TEST_DATABASE_URL)('the database goes away and comes back', () => {
  if (unavailable !== undefined) {
    it('needs a PostgreSQL cluster of its own', (context) => {
      if (process.env.REQUIRE_POSTGRES_TESTS === '1') throw new Error(unavailable);
      context.skip(`SKIPPED: ${unavailable}`);
    });
    return;
  }

  let postgres: PrivatePostgres;
  let simulator: RunningSimulator;
  let dataDir: string;
  let a: Instance;
  let b: Instance;
  let phase: Phase = 'before';
  let phones = 0;
  let orphans = 0;
  const answers: Answer[] = [];
  const acknowledged: Payment[] = [];
  /** Payments refused with DATABASE_UNAVAILABLE that say they were saved (their transactionId). */
  const saved: string[] = [];
  /** Every callback the API was sent, by this test or by the simulator. */
  const callbacks: SentCallback[] = [];

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    simulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '200' });
    simulator.log.on('entry', (entry) => {
      // STK's callbacks only: the simulator's other APIs name theirs by ConversationID.
      if (entry.kind !== 'callback' || !('checkoutRequestId' in entry)) return;
      callbacks.push({
        checkoutRequestId: entry.checkoutRequestId,
        body: entry.requestBody as object,
        receipt: callbackReceipt(entry.requestBody),
        taken: entry.status !== null && entry.status >= 200 && entry.status < 300,
      });
    });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-outage-'));
    const start = async (name: Instance['name']): Promise<Instance> => {
      const port = await freePort();
      return { name, port, api: await startApiProcess(settings(), port) };
    };
    // One after the other: each runs the migrations at start-up, on an empty database.
    a = await start('A');
    b = await start('B');
  });

  function settings(): Record<string, string> {
    return {
      DATA_DIR: dataDir,
      DATABASE_URL: postgres.url,
      DATABASE_POOL_SIZE: '4',
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      MPESA_BASE_URL: simulator.url,
      MPESA_CALLBACK_SECRET: SECRET,
      PHONE_COOLDOWN_S: '0',
      STKPUSH_RATE_LIMIT: '0',
      RECONCILE_AFTER_S: '1',
      RECONCILE_INTERVAL_MS: '200',
      RECONCILE_MAX_BACKOFF_S: '1',
    };
  }

  /** An instance an earlier test saw die is started again, so that each test gives its own verdict. */
  async function startDead(): Promise<void> {
    for (const instance of [a, b]) {
      if (instance.api.child.exitCode !== null) {
        instance.api = await startApiProcess(settings(), instance.port);
      }
    }
  }

  // Each test judges the answers it got.
  beforeEach(() => {
    answers.length = 0;
  });

  afterAll(async () => {
    for (const instance of [a, b]) {
      if (instance && instance.api.child.exitCode === null) {
        instance.api.child.kill('SIGTERM');
        await instance.api.exited;
      }
    }
    await simulator?.close();
    await postgres?.destroy();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Asks, and records the answer (or that none came). */
  async function ask(
    { name, api }: Instance,
    method: 'GET' | 'POST',
    route: string,
    { body, timeoutMs = 10_000 }: { body?: object; timeoutMs?: number } = {},
  ): Promise<Answer> {
    const started = Date.now();
    const answer: Answer = {
      what: `${method} ${name} ${route.replace(SECRET, '<secret>')}`,
      route: route.split('?')[0]!,
      phase,
      status: null,
      body: undefined,
      retryAfter: null,
      error: null,
      ms: 0,
    };
    try {
      const response = await fetch(`${api.url}${route}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      answer.status = response.status;
      answer.retryAfter = response.headers.get('retry-after');
      try {
        answer.body = JSON.parse(text);
      } catch {
        answer.body = text;
      }
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      answer.error = cause?.code ?? (error as Error).name ?? String(error);
    }
    answer.ms = Date.now() - started;
    answers.push(answer);
    return answer;
  }

  /**
   * A payment to a number of its own. `simulator`: M-PESA reports it paid by callback to the
   * instance that pushed it, once (one refused is delivered again at the end, as M-PESA may);
   * `test`: the prompt stays open and this test delivers the success callback, to the other
   * instance.
   */
  async function pay(
    here: Instance,
    by: 'simulator' | 'test',
    timeoutMs?: number,
  ): Promise<{ answer: Answer; payment?: Payment }> {
    const n = ++phones;
    const phone = `07001${String(n).padStart(5, '0')}`;
    simulator.prompts.setNext(`254${phone.slice(1)}`, {
      outcome: by === 'simulator' ? { kind: 'result', resultCode: '0' } : { kind: 'manual' },
    });
    const answer = await ask(here, 'POST', '/api/mpesa/stkpush', {
      body: { phoneNumber: phone, amount: 10 },
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    const ack = answer.body as { transactionId?: string; checkoutRequestId?: string } | undefined;
    if (answer.status === 503 && ack?.transactionId) saved.push(ack.transactionId);
    if (answer.status !== 200 || !ack?.transactionId || !ack.checkoutRequestId) return { answer };
    const payment = {
      phone,
      transactionId: ack.transactionId,
      checkoutRequestId: ack.checkoutRequestId,
    };
    acknowledged.push(payment);
    return { answer, payment };
  }

  async function deliver(to: Instance, body: object, timeoutMs?: number) {
    const answer = await ask(to, 'POST', CALLBACK_PATH, {
      body,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    callbacks.push({
      checkoutRequestId: checkoutIdOf(body),
      body,
      receipt: callbackReceipt(body),
      taken: answer.status === 200,
    });
    return answer;
  }

  function paidCallback(payment: Payment) {
    return successCallback(payment.checkoutRequestId, {
      amount: 10,
      phoneNumber: `254${payment.phone.slice(1)}`,
      receipt: `OUT${payment.phone.slice(-7)}`,
    });
  }

  /** One of the mix of requests a busy shop sends, the i-th: payments, callbacks, reads, probes. */
  async function step(i: number): Promise<void> {
    const [here, there] = (i + Math.floor(i / 8)) % 2 ? [a, b] : [b, a];
    const latest = acknowledged.at(-1);
    switch (i % 8) {
      case 0:
      case 4: {
        const { payment } = await pay(here, 'test');
        if (payment) await deliver(there, paidCallback(payment));
        return;
      }
      case 1:
      case 5:
        await pay(here, 'simulator');
        return;
      case 2:
        await ask(
          here,
          'GET',
          latest ? `/api/mpesa/transactions/${latest.transactionId}` : '/api/mpesa/summary',
        );
        return;
      case 3:
        await ask(here, 'GET', '/api/mpesa/transactions?limit=5');
        return;
      case 6:
        await ask(here, 'GET', i % 16 === 6 ? '/api/health' : '/api/ready');
        return;
      default:
        // A callback for a push no one here made: kept as an orphan.
        await deliver(here, failureCallback(`ws_CO_orphan_${++orphans}`, 1032, 'Cancelled'));
    }
  }

  /** Sends `step`s every `everyMs` until stopped; stopping waits for the answers still due. */
  function keepSending(everyMs: number) {
    let sending = true;
    const due: Promise<void>[] = [];
    const loop = (async () => {
      for (let i = 0; sending; i++) {
        due.push(step(i));
        await sleep(everyMs);
      }
    })();
    return async () => {
      sending = false;
      await loop;
      await Promise.all(due);
    };
  }

  /** Waits until both instances read the history again; how long that took. */
  async function untilServing(): Promise<number> {
    const since = Date.now();
    for (const instance of [a, b]) {
      for (;;) {
        const { exitCode } = instance.api.child;
        if (exitCode !== null) {
          throw new Error(
            `API ${instance.name} exited (${exitCode}):\n${outputHead(instance.api)}`,
          );
        }
        if ((await ask(instance, 'GET', '/api/mpesa/transactions?limit=1')).status === 200) break;
        if (Date.now() - since > RECOVERY_MS) {
          throw new Error(`API ${instance.name} did not serve again within ${RECOVERY_MS} ms`);
        }
        await sleep(200);
      }
    }
    return Date.now() - since;
  }

  function expectAlive() {
    for (const { name, api } of [a, b]) {
      expect(api.child.exitCode, `API ${name} exited:\n${outputHead(api)}`).toBeNull();
    }
  }

  async function readPayment(instance: Instance, id: string) {
    const answer = await ask(instance, 'GET', `/api/mpesa/transactions/${id}`);
    const data = (answer.body as { data?: Record<string, unknown> } | undefined)?.data;
    return { status: answer.status, data };
  }

  /** The callbacks the database holds for these CheckoutRequestIDs, read directly. */
  async function storedCallbacks(checkoutIds: string[]): Promise<Map<string, string[]>> {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ checkout_request_id: string; outcome: string }>(
        'select checkout_request_id, outcome from callbacks where checkout_request_id = any($1)',
        [checkoutIds],
      );
      const stored = new Map<string, string[]>();
      for (const row of rows) {
        stored.set(row.checkout_request_id, [
          ...(stored.get(row.checkout_request_id) ?? []),
          row.outcome,
        ]);
      }
      return stored;
    } finally {
      await client.end();
    }
  }

  it('survives its connections cut and a restart: no crash, no 500, nothing acknowledged lost', async () => {
    const stop = keepSending(50);
    let terminated: number;
    let recoveryMs: number;
    try {
      await sleep(1000);
      phase = 'cut';
      terminated = await postgres.terminateAll();
      await sleep(1500);
      phase = 'down';
      await postgres.stop('fast');
      await sleep(2000);
      await postgres.start();
      phase = 'back';
      recoveryMs = await untilServing();
      await sleep(1000);
    } finally {
      await stop();
    }
    phase = 'after';
    expectAlive();
    for (const instance of [a, b]) {
      expect((await ask(instance, 'GET', '/api/health')).status).toBe(200);
    }
    expect(terminated, 'the API had no connection open to cut').toBeGreaterThan(0);
    expect.soft(answers.map(answerFault).filter(Boolean)).toEqual([]);
    expect
      .soft(
        answers.some((answer) => answer.phase === 'down' && isDatabaseUnavailable(answer)),
        'no request was refused with DATABASE_UNAVAILABLE while the database was down',
      )
      .toBe(true);
    expect(recoveryMs).toBeLessThan(RECOVERY_MS);
    for (const instance of [a, b]) {
      const { answer } = await pay(instance, 'simulator');
      expect(answer.status, `a payment to ${instance.name} once the database is back`).toBe(200);
    }

    // Every acknowledged payment exists, on both instances.
    const lost: string[] = [];
    for (const payment of acknowledged) {
      for (const instance of [a, b]) {
        const { status, data } = await readPayment(instance, payment.transactionId);
        if (status !== 200 || data?.checkoutRequestId !== payment.checkoutRequestId) {
          lost.push(`${payment.transactionId} on ${instance.name}: ${status}`);
        }
      }
    }
    // And so does every payment a refusal said was saved.
    for (const id of saved) {
      for (const instance of [a, b]) {
        const { status } = await readPayment(instance, id);
        if (status !== 200) lost.push(`${id} (refused, saved) on ${instance.name}: ${status}`);
      }
    }
    expect.soft(lost).toEqual([]);

    // Every callback taken (2xx) took effect: it is on record, and the payment it is for is paid,
    // with its receipt. (Those taken after this, by the simulator, are checked below.)
    const sent = [...callbacks];
    const taken = sent.filter((callback) => callback.taken);
    const stored = await storedCallbacks(taken.map((callback) => callback.checkoutRequestId));
    const noEffect: string[] = [];
    for (const { checkoutRequestId, receipt } of taken) {
      if (!stored.has(checkoutRequestId)) noEffect.push(`${checkoutRequestId}: not on record`);
      const payment = acknowledged.find((each) => each.checkoutRequestId === checkoutRequestId);
      if (!payment || receipt === undefined) continue;
      const { data } = await readPayment(a, payment.transactionId);
      if (data?.status !== 'success' || data.mpesaReceiptNumber !== receipt) {
        noEffect.push(`${checkoutRequestId}: ${data?.status}, receipt ${data?.mpesaReceiptNumber}`);
      }
    }
    expect.soft(noEffect).toEqual([]);

    // Those refused are taken when delivered again, as M-PESA may; then every acknowledged
    // payment ends paid, with the receipt its callback carried.
    for (const { body, checkoutRequestId } of sent.filter((callback) => !callback.taken)) {
      const answer = await deliver(a, body);
      expect.soft(answer.status, `${checkoutRequestId} delivered again`).toBe(200);
    }
    const deadline = Date.now() + 10_000;
    let unpaid: string[];
    do {
      unpaid = [];
      for (const payment of acknowledged) {
        const { data } = await readPayment(b, payment.transactionId);
        const receipt = callbacks.find(
          (callback) =>
            callback.checkoutRequestId === payment.checkoutRequestId && callback.receipt,
        )?.receipt;
        if (data?.status !== 'success' || (receipt && data.mpesaReceiptNumber !== receipt)) {
          unpaid.push(
            `${payment.transactionId}: ${data?.status}, receipt ${data?.mpesaReceiptNumber}`,
          );
        }
      }
      if (unpaid.length > 0) await sleep(300);
    } while (unpaid.length > 0 && Date.now() < deadline);
    expect.soft(unpaid).toEqual([]);
  });

  it('answers 503 within seconds while the database hangs, and serves again when it wakes', async () => {
    await startDead();
    phase = 'before';
    await untilServing();
    const latest = acknowledged.at(-1);
    const round = () =>
      Promise.all(
        [a, b].flatMap((instance) => [
          ask(instance, 'GET', '/api/mpesa/transactions?limit=5', { timeoutMs: HUNG_WAIT_MS }),
          ask(
            instance,
            'GET',
            latest ? `/api/mpesa/transactions/${latest.transactionId}` : '/api/mpesa/summary',
            { timeoutMs: HUNG_WAIT_MS },
          ),
          pay(instance, 'simulator', HUNG_WAIT_MS),
          deliver(
            instance,
            failureCallback(`ws_CO_orphan_${++orphans}`, 1032, 'Cancelled'),
            HUNG_WAIT_MS,
          ),
          ask(instance, 'GET', '/api/ready', { timeoutMs: HUNG_WAIT_MS }),
          ask(instance, 'GET', '/api/health', { timeoutMs: HUNG_WAIT_MS }),
        ]),
      );
    await postgres.pause();
    phase = 'hung';
    try {
      // A second round while the first still waits: the pool is full of hung connections then.
      await Promise.all([round(), sleep(1500).then(round)]);
    } finally {
      postgres.resume();
    }
    phase = 'woken';
    const recoveryMs = await untilServing();
    for (const instance of [a, b]) {
      const { answer } = await pay(instance, 'simulator');
      expect.soft(answer.status, `a payment to ${instance.name} once it wakes`).toBe(200);
    }

    expectAlive();
    expect.soft(answers.map(answerFault).filter(Boolean)).toEqual([]);
    const hung = answers.filter((answer) => answer.phase === 'hung');
    expect
      .soft(
        hung
          .filter((answer) => answer.ms >= HUNG_ANSWER_MS)
          .map(
            (answer) => `${answer.what}: ${answer.status ?? answer.error} after ${answer.ms} ms`,
          ),
        `answered within ${HUNG_ANSWER_MS} ms while the database hung`,
      )
      .toEqual([]);
    expect
      .soft(
        hung
          .filter((answer) => answer.route !== '/api/health' && answer.route !== '/api/ready')
          .filter((answer) => !isDatabaseUnavailable(answer))
          .map((answer) => `${answer.what}: ${answer.status ?? answer.error}`),
        'answered 503 DATABASE_UNAVAILABLE while the database hung',
      )
      .toEqual([]);
    expect(recoveryMs).toBeLessThan(RECOVERY_MS);
  });
});
