/**
 * POST /_sim/clock/advance: what waits on the simulator's clock happens at once when it is moved
 * (a prompt's timeout, an auto-approval, a forced outcome, a delayed callback, a token's expiry),
 * and bad bodies are refused in the control API's envelope.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  pushBody,
  startReceiver,
  startSimulator,
  token,
  type Harness,
  type Receiver,
} from './test/harness.ts';

let sim: Harness | undefined;
let receiver: Receiver | undefined;

afterEach(async () => {
  await sim?.close();
  await receiver?.close();
  sim = undefined;
  receiver = undefined;
});

/** A simulator with its settings (defaults: 60 s prompts, no auto-approval), and a receiver. */
async function start(env: Record<string, string> = {}) {
  sim = await startSimulator(env);
  receiver = await startReceiver();
  return { sim, receiver, bearer: await token(sim.url) };
}

async function push(target: Harness, bearer: string, phone: string, callbackUrl: string) {
  return call(`${target.url}/mpesa/stkpush/v1/processrequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
    body: pushBody({ PartyA: phone, PhoneNumber: phone }, callbackUrl),
  });
}

const advance = (target: Harness, body: unknown) =>
  call(`${target.url}/_sim/clock/advance`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('moving the clock', () => {
  it('times a prompt out after 60 s in milliseconds, and its 1037 callback is delivered', async () => {
    const { sim, receiver, bearer } = await start({ SIM_PROMPT_TIMEOUT_S: '60' });
    const pushed = await push(sim, bearer, '254708374149', receiver.url);
    const id = pushed.body.CheckoutRequestID as string;
    expect((await advance(sim, { seconds: 58 })).status).toBe(200);
    expect(sim.prompts.get(id)?.state).toBe('open');

    const moved = await advance(sim, { seconds: 3 });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ now: expect.any(String), aheadMs: expect.any(Number), fired: 1 });
    // The clock lands on the time asked for: the real time its timers took to run is not added.
    expect(moved.body.aheadMs).toBeGreaterThan(60_900);
    expect(moved.body.aheadMs).toBeLessThanOrEqual(61_000);
    expect(Date.parse(moved.body.now) - Date.now()).toBeGreaterThan(60_000);
    await receiver.waitFor(1, 1000);
    expect(receiver.received[0]?.body.Body.stkCallback).toMatchObject({
      CheckoutRequestID: id,
      ResultCode: 1037,
    });
    expect(sim.prompts.get(id)).toMatchObject({ resultCode: '1037', completedBy: 'timeout' });
  });

  it('fires an auto-approval', async () => {
    const { sim, receiver, bearer } = await start({ SIM_AUTO_APPROVE_S: '10' });
    const id = (await push(sim, bearer, '254708374149', receiver.url)).body.CheckoutRequestID;
    await pause(100);
    expect(sim.prompts.get(id)?.state).toBe('open');
    await advance(sim, { seconds: 11 });
    await receiver.waitFor(1, 1000);
    expect(receiver.received[0]?.body.Body.stkCallback.ResultCode).toBe(0);
    expect(sim.prompts.get(id)).toMatchObject({ completedBy: 'auto-approval' });
  });

  it('ends a forced outcome after SIM_CALLBACK_DELAY_MS', async () => {
    const { sim, receiver, bearer } = await start({ SIM_CALLBACK_DELAY_MS: '6000' });
    await push(sim, bearer, '254700001032', receiver.url);
    await pause(100);
    expect(receiver.received).toEqual([]);
    await advance(sim, { seconds: 6 });
    await receiver.waitFor(1, 1000);
    expect(receiver.received[0]?.body.Body.stkCallback.ResultCode).toBe(1032);
  });

  it('delivers a callback a number’s fault delays', async () => {
    const { sim, receiver, bearer } = await start();
    await call(`${sim.url}/_sim/numbers/0708374149/next`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: { outcome: '0', fault: { delayMs: 300_000 } },
    });
    const id = (await push(sim, bearer, '254708374149', receiver.url)).body.CheckoutRequestID;
    await expect.poll(() => sim.prompts.get(id)?.state).toBe('completed');
    expect(receiver.received).toEqual([]);
    await advance(sim, { seconds: 300 });
    await receiver.waitFor(1, 1000);
    // Delivered once the receiver's answer is back, a moment after the receiver has the callback.
    await expect.poll(() => sim.prompts.get(id)?.callback).toBe('delivered');
  });

  it('expires a token: the next push with it gets Daraja’s invalid-token error', async () => {
    const { sim, receiver, bearer } = await start();
    expect((await push(sim, bearer, '254700000000', receiver.url)).status).toBe(200);
    await advance(sim, { seconds: 3600 });
    const refused = await push(sim, bearer, '254700000000', receiver.url);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({
      errorCode: '404.001.03',
      errorMessage: 'Invalid Access Token',
    });
    // A token issued after the move is good for another hour of the moved clock.
    expect((await push(sim, await token(sim.url), '254700000000', receiver.url)).status).toBe(200);
  });

  it('shows the time and is not moved back by a reset', async () => {
    const { sim } = await start();
    expect((await call(`${sim.url}/_sim/clock`)).body).toEqual({
      now: expect.any(String),
      aheadMs: 0,
    });
    await advance(sim, { seconds: 90.5 });
    expect((await call(`${sim.url}/_sim/reset`, { method: 'POST' })).status).toBe(204);
    expect((await call(`${sim.url}/_sim/clock`)).body.aheadMs).toBe(90_500);
    expect((await call(`${sim.url}/_sim/info`)).body.clockAheadMs).toBe(90_500);
  });

  it.each([
    [{ seconds: 0 }, 'body/seconds must be more than 0'],
    [{ seconds: -5 }, 'body/seconds must be more than 0'],
    [{ seconds: '61' }, 'body/seconds must be a number of seconds'],
    [{}, 'body/seconds must be a number of seconds'],
    [{ seconds: 2_592_001 }, 'body/seconds must be at most 2592000 (30 days)'],
    [{ seconds: 61, minutes: 1 }, 'Unrecognized key: "minutes"'],
    [[61], 'body must be a JSON object'],
  ])('refuses %j with a 400 naming the problem', async (body, named) => {
    const { sim } = await start();
    const answer = await advance(sim, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: expect.stringContaining(named) });
    expect(sim.clock.offsetMs).toBe(0);
  });

  it('refuses a body that is not JSON, or none', async () => {
    const { sim } = await start();
    for (const raw of ['{"seconds":', '']) {
      const answer = await call(`${sim.url}/_sim/clock/advance`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        raw,
      });
      expect(answer.status, raw).toBe(400);
      expect(answer.body).toEqual({ error: expect.any(String) });
    }
    const none = await call(`${sim.url}/_sim/clock/advance`, { method: 'POST' });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: expect.stringContaining('body') });
  });
});
