/**
 * SIM_STATE across a crash: the simulator as its own process (server.ts), killed with SIGKILL (no
 * chance to save anything on the way out) and started again on the same file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, pushBody, queryBody, startReceiver, token, type Receiver } from './test/harness.ts';
import { readStateFile } from './state.ts';
import { runToEnd, startProcess, type SimulatorProcess } from './test/process.ts';

let dir: string;
let file: string;
let receiver: Receiver;
const processes: SimulatorProcess[] = [];

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-restart-'));
  file = path.join(dir, 'state.json');
  receiver = await startReceiver();
  return async () => {
    for (const sim of processes.splice(0)) await sim.kill('SIGKILL');
    await receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
});

async function start(env: Record<string, string> = {}): Promise<SimulatorProcess> {
  const sim = await startProcess({ SIM_STATE: file, SIM_AUTO_APPROVE_S: '0', ...env });
  processes.push(sim);
  return sim;
}

/**
 * What a crash is: SIGKILL the moment the answer has arrived, with no wait (every change is in the
 * file before it is answered).
 */
async function crash(sim: SimulatorProcess): Promise<void> {
  await sim.kill('SIGKILL');
  expect(sim.child.signalCode).toBe('SIGKILL');
}

async function push(sim: SimulatorProcess, phone: string, bearer?: string) {
  const answer = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${bearer ?? (await token(sim.url))}`,
    },
    body: pushBody({ PartyA: phone, PhoneNumber: phone }, receiver.url),
  });
  return answer;
}

async function query(sim: SimulatorProcess, id: string) {
  return call(`${sim.url}/mpesa/stkpushquery/v1/query`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${await token(sim.url)}`,
    },
    body: queryBody(id),
  });
}

// The file used to be written within 50 ms of a change, after the answer, so a process
// killed in between forgot what it had answered.
describe('a simulator killed the moment after it answered', () => {
  it('still knows a push it accepted: STK query answers for it, and its callback comes', async () => {
    // 254700000000 is forced to pay, SIM_CALLBACK_DELAY_MS after the push.
    const env = { SIM_CALLBACK_DELAY_MS: '300' };
    let sim = await start(env);
    const answer = await push(sim, '254700000000');
    const killed = sim.kill('SIGKILL');
    expect(answer.status).toBe(200);
    const id = answer.body.CheckoutRequestID as string;
    await killed;
    expect(receiver.received).toHaveLength(0);

    sim = await start(env);
    await receiver.waitFor(1);
    expect(receiver.received[0]!.body.Body.stkCallback).toMatchObject({
      CheckoutRequestID: id,
      ResultCode: 0,
    });
    const answered = await query(sim, id);
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ CheckoutRequestID: id, ResultCode: '0' });
  });

  it('has a prompt paid by a PIN it answered 200 as paid, and never times it out', async () => {
    let sim = await start();
    const id = (await push(sim, '254708374149')).body.CheckoutRequestID as string;
    // As an attack found it: the file holds the prompt open when the PIN comes.
    await expect.poll(() => readStateFile(file)?.prompts[0]?.state).toBe('open');
    const paid = await call(`${sim.url}/_sim/prompts/${id}/pin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: { pin: '1234' },
    });
    const killed = sim.kill('SIGKILL');
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ state: 'completed', resultCode: '0' });
    await killed;

    sim = await start();
    expect((await call(`${sim.url}/_sim/prompts/${id}`)).body).toMatchObject({
      state: 'completed',
      resultCode: '0',
    });
    // Past its 60-second timeout: a prompt still open would end now with 1037.
    const moved = await call(`${sim.url}/_sim/clock/advance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: { seconds: 61 },
    });
    expect(moved.body.fired).toBe(0);
    expect((await query(sim, id)).body).toMatchObject({ CheckoutRequestID: id, ResultCode: '0' });
    // Its callback: before the kill, after the restart, or both; each says paid.
    await receiver.waitFor(1);
    const results = receiver.received.map((callback) => callback.body.Body.stkCallback);
    expect(
      results.every((result) => result.CheckoutRequestID === id && result.ResultCode === 0),
    ).toBe(true);
  });
});

describe('a simulator killed and started again on its SIM_STATE file', () => {
  it('still has the prompt that was open, which a PIN then pays, with its callback', async () => {
    let sim = await start();
    const answer = await push(sim, '254708374149');
    expect(answer.status).toBe(200);
    const id = answer.body.CheckoutRequestID as string;
    await crash(sim);

    sim = await start();
    const prompt = await call(`${sim.url}/_sim/prompts/${id}`);
    expect(prompt.status).toBe(200);
    expect(prompt.body).toMatchObject({ state: 'open', callback: 'waiting' });
    const paid = await call(`${sim.url}/_sim/prompts/${id}/pin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: { pin: '1234' },
    });
    expect(paid.status).toBe(200);
    await receiver.waitFor(1);
    expect(receiver.received[0]!.body.Body.stkCallback).toMatchObject({
      CheckoutRequestID: id,
      ResultCode: 0,
    });
  });

  it('ends an open prompt by its own timer, counted from before the crash', async () => {
    // 254700000001 is forced to ResultCode 1 two seconds after the push.
    const env = { SIM_CALLBACK_DELAY_MS: '2000' };
    const sim = await start(env);
    const sentAt = Date.now();
    const answer = await push(sim, '254700000001');
    const id = answer.body.CheckoutRequestID as string;
    await crash(sim);

    await start(env);
    await receiver.waitFor(1, 10_000);
    expect(receiver.received[0]!.body.Body.stkCallback).toMatchObject({
      CheckoutRequestID: id,
      ResultCode: 1,
    });
    expect(receiver.received[0]!.at - sentAt).toBeGreaterThanOrEqual(2000);
  });

  it('delivers, late, a callback the receiver had refused, with retries still to come', async () => {
    // The first delivery gets a 503; the retry would be a minute later, but the process dies first.
    const env = {
      SIM_CALLBACK_DELAY_MS: '50',
      SIM_CALLBACK_RETRIES: '3',
      SIM_CALLBACK_RETRY_BACKOFF_MS: '60000',
    };
    receiver.answers.push(503);
    let sim = await start(env);
    const answer = await push(sim, '254700000000');
    const id = answer.body.CheckoutRequestID as string;
    await receiver.waitFor(1);
    await crash(sim);
    expect(receiver.received).toHaveLength(1);

    sim = await start(env);
    await receiver.waitFor(2);
    expect(receiver.received[1]!.body).toEqual(receiver.received[0]!.body);
    expect(receiver.received[1]!.body.Body.stkCallback).toMatchObject({
      CheckoutRequestID: id,
      ResultCode: 0,
    });
    await expect
      .poll(async () => (await call(`${sim.url}/_sim/prompts/${id}`)).body.callback)
      .toBe('delivered');
  });

  it('delivers, late, a callback whose receiver was down', async () => {
    const down = await startReceiver();
    const url = down.url;
    await down.close();
    let sim = await start({
      SIM_CALLBACK_DELAY_MS: '50',
      SIM_CALLBACK_RETRIES: '1',
      SIM_CALLBACK_RETRY_BACKOFF_MS: '60000',
    });
    const pushed = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${await token(sim.url)}`,
      },
      body: pushBody({ PartyA: '254700000000', PhoneNumber: '254700000000' }, url),
    });
    const id = pushed.body.CheckoutRequestID as string;
    await expect
      .poll(async () => (await call(`${sim.url}/_sim/log?kind=callback`)).body.entries.length)
      .toBe(1);
    await crash(sim);

    // The receiver is back, where it was.
    const back = await startReceiver(Number(new URL(url).port));
    try {
      sim = await start();
      await back.waitFor(1);
      expect(back.received[0]!.body.Body.stkCallback).toMatchObject({ CheckoutRequestID: id });
    } finally {
      await back.close();
    }
  });

  it('accepts an access token issued before the crash', async () => {
    let sim = await start();
    const bearer = await token(sim.url);
    await crash(sim);

    sim = await start();
    const answer = await push(sim, '254708374149', bearer);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ResponseCode: '0' });
    const stranger = await push(sim, '254708374149', 'NotATokenThisSimulatorIssued');
    expect(stranger.status).toBe(404);
  });
});

describe('a state file that is not one', () => {
  it('stops the start with a sentence naming it, no stack trace, and leaves it as it is', async () => {
    fs.writeFileSync(file, '{"version":1,"prompts":[');
    const result = await runToEnd([], { SIM_STATE: file, SIMULATOR_PORT: '0' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(
      new RegExp(`^Cannot start: SIM_STATE file ${file} is not valid JSON \\(.*\\): move it away`),
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"version":1,"prompts":[');
  });

  it('given by --state, in a folder that does not exist, is refused the same way', async () => {
    const missing = path.join(dir, 'nowhere', 'state.json');
    const result = await runToEnd(['--state', missing, '--port', '0']);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Cannot start: SIM_STATE file ${missing} cannot be used: its folder ${path.dirname(missing)} does not exist.`,
    );
  });
});
