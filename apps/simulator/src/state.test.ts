/**
 * SIM_STATE in one process: what the file holds and when it is written, what a restart of the
 * simulator (closed and built again on the same file) carries on with, and files it refuses.
 * state-restart.test.ts kills a real process.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readStateFile } from './state.ts';
import type { NewPrompt } from './operations/stk/prompt.ts';
import {
  call,
  pushBody,
  queryBody,
  startReceiver,
  startSimulator,
  token,
  type Harness,
  type Receiver,
} from './test/harness.ts';

let dir: string;
let file: string;
let receiver: Receiver;
const running: Harness[] = [];

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-state-'));
  file = path.join(dir, 'state.json');
  receiver = await startReceiver();
  return async () => {
    vi.restoreAllMocks();
    for (const sim of running.splice(0)) await sim.close();
    await receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
});

async function start(env: Record<string, string> = {}): Promise<Harness> {
  const sim = await startSimulator({ SIM_STATE: file, ...env });
  running.push(sim);
  return sim;
}

async function stop(sim: Harness): Promise<void> {
  running.splice(running.indexOf(sim), 1);
  await sim.close();
}

const saved = () => readStateFile(file)!;
const JSON_BODY = { 'Content-Type': 'application/json' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function push(sim: Harness, phone = '254708374149') {
  const answer = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${await token(sim.url)}`,
    },
    body: pushBody({ PartyA: phone, PhoneNumber: phone }, receiver.url),
  });
  expect(answer.status).toBe(200);
  return answer.body.CheckoutRequestID as string;
}

function newPrompt(phone: string): NewPrompt {
  return {
    businessShortCode: '174379',
    transactionType: 'CustomerPayBillOnline',
    amount: 1,
    partyA: phone,
    partyB: '174379',
    phoneNumber: phone,
    callbackUrl: receiver.url,
    accountReference: 'Test',
    transactionDesc: 'Test',
  };
}

describe('the state file', () => {
  it('is written at start, and holds a new prompt and token within 100 ms', async () => {
    const sim = await start();
    expect(saved()).toMatchObject({ version: 2, prompts: [], tokens: [], next: [] });
    const id = await push(sim);
    await sleep(100);
    const state = saved();
    expect(state.prompts.map((prompt) => [prompt.checkoutRequestId, prompt.state])).toEqual([
      [id, 'open'],
    ]);
    expect(state.tokens).toHaveLength(1);
  });

  it('writes a burst of changes in one write, which replaces the file whole', async () => {
    const sim = await start();
    const renames = vi.spyOn(fs.promises, 'rename');
    for (let n = 0; n < 1000; n++)
      sim.prompts.create(newPrompt(`25471${String(n).padStart(7, '0')}`));
    expect(renames).not.toHaveBeenCalled();
    await sim.prompts.saved?.();
    expect(renames).toHaveBeenCalledTimes(1);
    expect(saved().prompts).toHaveLength(1000);
    // No temporary file left behind: the state and the simulator's lock on it.
    expect(fs.readdirSync(dir).sort()).toEqual(['state.json', 'state.json.lock']);
  });

  it("follows a prompt's end, its callback, the numbers' next outcomes, expired tokens and a reset", async () => {
    const sim = await start();
    const id = await push(sim);
    await call(`${sim.url}/_sim/prompts/${id}/pin`, {
      method: 'POST',
      headers: JSON_BODY,
      body: { pin: '1234' },
    });
    await receiver.waitFor(1);
    // The callback counts as delivered once the receiver's answer is back, and the file holds
    // that with the write after it: polled for, as a starved machine may take longer than 100 ms.
    await vi.waitFor(
      () => expect(saved().prompts[0]).toMatchObject({ state: 'completed', callback: 'delivered' }),
      { timeout: 5000, interval: 50 },
    );

    await call(`${sim.url}/_sim/numbers/0712345678/next`, {
      method: 'PUT',
      headers: JSON_BODY,
      body: { outcome: '1032' },
    });
    await call(`${sim.url}/_sim/tokens/expire`, { method: 'POST' });
    await sleep(100);
    expect(saved().next).toEqual([
      ['254712345678', { outcome: { kind: 'result', resultCode: '1032' } }],
    ]);
    expect(saved().tokens).toEqual([]);

    await call(`${sim.url}/_sim/numbers/0712345678/next`, { method: 'DELETE' });
    await sleep(100);
    expect(saved().next).toEqual([]);

    await call(`${sim.url}/_sim/reset`, { method: 'POST' });
    await sleep(100);
    expect(saved().prompts).toEqual([]);
  });

  it('is kept, not reset, when the simulator closes: the next one carries on', async () => {
    let sim = await start();
    const bearer = await token(sim.url);
    const id = await push(sim);
    await call(`${sim.url}/_sim/numbers/0712345678/next`, {
      method: 'PUT',
      headers: JSON_BODY,
      body: { outcome: '1' },
    });
    await stop(sim);

    sim = await start();
    expect(sim.prompts.get(id)).toMatchObject({ state: 'open' });
    expect(sim.tokens.isValid(bearer)).toBe(true);
    expect(sim.prompts.peekForced('254712345678')).toEqual({ kind: 'result', resultCode: '1' });
    await call(`${sim.url}/_sim/prompts/${id}/pin`, {
      method: 'POST',
      headers: JSON_BODY,
      body: { pin: '1234' },
    });
    await receiver.waitFor(1);
    expect(receiver.received[0]!.body.Body.stkCallback).toMatchObject({
      CheckoutRequestID: id,
      ResultCode: 0,
    });
  });

  it('keeps the fault rules, seed and all: the next simulator applies them', async () => {
    let sim = await start();
    const rules = [{ operation: 'stkpush', probability: 0.25, error: 'spike-arrest' }];
    await call(`${sim.url}/_sim/faults`, {
      method: 'PUT',
      headers: JSON_BODY,
      body: { seed: 11, rules },
    });
    await stop(sim);
    sim = await start();
    expect((await call(`${sim.url}/_sim/faults`)).body).toEqual({ seed: 11, rules });
  });

  it('keeps how far the clock was moved: a prompt made after a move times out by that clock', async () => {
    let sim = await start({ SIM_PROMPT_TIMEOUT_S: '60', SIM_AUTO_APPROVE_S: '0' });
    const advance = (seconds: number) =>
      call(`${sim.url}/_sim/clock/advance`, {
        method: 'POST',
        headers: JSON_BODY,
        body: { seconds },
      });
    await advance(3600);
    const id = await push(sim, '254712345679');
    expect(saved().clockAheadMs).toBeGreaterThanOrEqual(3_600_000);
    await stop(sim);

    sim = await start({ SIM_PROMPT_TIMEOUT_S: '60', SIM_AUTO_APPROVE_S: '0' });
    const clock = await call(`${sim.url}/_sim/clock`);
    expect(clock.body.aheadMs).toBeGreaterThanOrEqual(3_600_000);
    expect(sim.prompts.get(id)).toMatchObject({ state: 'open' });
    // Its minute is counted on the moved clock: a minute more ends it (on the real clock it
    // would still have an hour to go).
    await advance(61);
    await receiver.waitFor(1);
    expect(receiver.received[0]!.body.Body.stkCallback).toMatchObject({
      CheckoutRequestID: id,
      ResultCode: 1037,
    });
  });

  it('a prompt whose time ran out while the simulator was down ends as it was due to', async () => {
    // 254700000001 is forced to 1 after SIM_CALLBACK_DELAY_MS, half-way to its timeout.
    const timings = { SIM_CALLBACK_DELAY_MS: '30000', SIM_PROMPT_TIMEOUT_S: '60' };
    const sim = await start(timings);
    const id = await push(sim, '254700000001');
    await stop(sim);
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      prompts: { createdAt: string; expiresAt: string }[];
    };
    // As if the simulator had been down for two minutes: both its outcome and its timeout are past.
    const earlier = (iso: string) => new Date(Date.parse(iso) - 120_000).toISOString();
    for (const prompt of state.prompts) {
      prompt.createdAt = earlier(prompt.createdAt);
      prompt.expiresAt = earlier(prompt.expiresAt);
    }
    fs.writeFileSync(file, JSON.stringify(state));

    await start(timings);
    await receiver.waitFor(1);
    expect(receiver.received[0]!.body.Body.stkCallback).toMatchObject({
      CheckoutRequestID: id,
      ResultCode: 1,
    });
  });
});

describe('a state file that cannot be used stops the start with a sentence', () => {
  it.each([
    ['not JSON', '{"version":1,"prompts":[', /is not valid JSON \(.*\): move it away/],
    [
      'JSON of another shape',
      '{"version":1,"tokens":[]}',
      /is not a state file this simulator wrote \(savedAt: .*\): move it away/,
    ],
    ['another version', '{"version":0}', /is not a state file this simulator wrote \(version: /],
    [
      'a newer simulator’s',
      '{"version":3,"ledger":{}}',
      /is not a state file this simulator can read: a newer simulator wrote it \(format 3; this one reads 1 to 2\)\. Start that simulator on it again, or move it away/,
    ],
  ])('%s: it is named, and left as it is', async (_case, content, why) => {
    fs.writeFileSync(file, content);
    const refusal = startSimulator({ SIM_STATE: file });
    await expect(refusal).rejects.toThrow(/^SIM_STATE file .*state\.json is not/);
    await expect(refusal).rejects.toThrow(why);
    await expect(refusal).rejects.toThrow(
      /the simulator does not overwrite a state file it cannot read, so that the prompts in it are not lost\.$/,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
  });

  it('a folder that does not exist', async () => {
    const missing = path.join(dir, 'nowhere', 'state.json');
    await expect(startSimulator({ SIM_STATE: missing })).rejects.toThrow(
      `SIM_STATE file ${missing} cannot be used: its folder ${path.dirname(missing)} does not exist.`,
    );
  });

  it('a folder given as the file', async () => {
    await expect(startSimulator({ SIM_STATE: dir })).rejects.toThrow(
      `SIM_STATE file ${dir} cannot be used: it is a folder.`,
    );
  });

  it('an empty file is an empty state, not an error', async () => {
    fs.writeFileSync(file, '');
    await start();
    expect(saved().prompts).toEqual([]);
  });
});

describe('one state file, one simulator', () => {
  it('refuses a second simulator on the same file, naming the process, and the first keeps its file', async () => {
    const first = await start();
    const id = await push(first);
    await expect(startSimulator({ SIM_STATE: file })).rejects.toThrow(
      new RegExp(
        `^SIM_STATE file .*state\\.json is in use by another simulator \\(process ${process.pid}\\)`,
      ),
    );
    expect(saved().prompts.map((prompt) => prompt.checkoutRequestId)).toEqual([id]);
    // Closed, it lets the next one have the file.
    await stop(first);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    const next = await start();
    expect(next.prompts.get(id)).toMatchObject({ state: 'open' });
  });

  it('takes over a lock left by a process that no longer runs (one killed with SIGKILL)', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    fs.writeFileSync(`${file}.lock`, String(gone));
    const sim = await start();
    expect(fs.readFileSync(`${file}.lock`, 'utf8')).toBe(String(process.pid));
    await stop(sim);
  });

  it.runIf(process.platform !== 'win32')(
    'refuses a pipe, or any file that is not a regular one, without reading it',
    async () => {
      const pipe = path.join(dir, 'pipe');
      execFileSync('mkfifo', [pipe]);
      await expect(startSimulator({ SIM_STATE: pipe })).rejects.toThrow(
        /^SIM_STATE .*pipe is not a regular file \(a device, a pipe or a socket\): give SIM_STATE a file of its own\.$/,
      );
      expect(fs.statSync(pipe).isFIFO()).toBe(true);
    },
  );
});

// A crash must not forget what was answered: each answer is read against the file the moment it arrives. The file used to
// be written within 50 ms of a change, after the answer.
describe('every change is in the file by the time it is answered', () => {
  const send = (sim: Harness, method: string, route: string, body?: unknown) =>
    call(`${sim.url}${route}`, {
      method,
      ...(body === undefined ? {} : { headers: JSON_BODY, body }),
    });
  const kept = (id: string) => saved().prompts.find((prompt) => prompt.checkoutRequestId === id);

  it('an access token, and every token expired', async () => {
    const sim = await start();
    const bearer = await token(sim.url);
    expect(saved().tokens.map(([issued]) => issued)).toEqual([bearer]);
    expect((await send(sim, 'POST', '/_sim/tokens/expire')).status).toBe(204);
    expect(saved().tokens).toEqual([]);
  });

  it('an accepted push, and a PIN that pays it', async () => {
    const sim = await start();
    const id = await push(sim);
    expect(kept(id)).toMatchObject({ state: 'open' });
    const paid = await send(sim, 'POST', `/_sim/prompts/${id}/pin`, { pin: '1234' });
    expect(paid.body).toMatchObject({ state: 'completed', resultCode: '0' });
    expect(kept(id)).toMatchObject({ state: 'completed', resultCode: '0' });
  });

  it.each([
    ['a wrong PIN', 'pin', { pin: '0000' }, '2001'],
    ['a cancel', 'cancel', undefined, '1032'],
    ['a timeout', 'timeout', undefined, '1037'],
    ['a forced result', 'result', { resultCode: '1' }, '1'],
  ])('%s', async (_case, action, body, resultCode) => {
    const sim = await start();
    const id = await push(sim);
    expect((await send(sim, 'POST', `/_sim/prompts/${id}/${action}`, body)).status).toBe(200);
    expect(kept(id)).toMatchObject({ state: 'completed', resultCode });
  });

  it("a number's next outcome chosen, used up by the push it refuses, chosen again and forgotten", async () => {
    const sim = await start();
    const route = '/_sim/numbers/0712345678/next';
    await send(sim, 'PUT', route, { outcome: 'busy' });
    expect(saved().next).toEqual([
      ['254712345678', { outcome: { kind: 'refuse', error: 'busy' } }],
    ]);
    const refused = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
      method: 'POST',
      headers: { ...JSON_BODY, Authorization: `Bearer ${await token(sim.url)}` },
      body: pushBody({ PartyA: '254712345678', PhoneNumber: '254712345678' }, receiver.url),
    });
    expect(refused.body).toMatchObject({ errorCode: '500.003.02' });
    expect(saved().next).toEqual([]);
    await send(sim, 'PUT', route, { outcome: '1032' });
    expect(saved().next).toHaveLength(1);
    expect((await send(sim, 'DELETE', route)).status).toBe(204);
    expect(saved().next).toEqual([]);
  });

  it('fault rules set and forgotten', async () => {
    const sim = await start();
    const rules = [{ operation: 'callback', probability: 0.5, error: 'duplicate' }];
    expect((await send(sim, 'PUT', '/_sim/faults', { seed: 7, rules })).status).toBe(200);
    expect(saved().faults).toEqual({ seed: 7, rules });
    expect((await send(sim, 'DELETE', '/_sim/faults')).status).toBe(204);
    expect(saved().faults).toEqual({ seed: 7, rules: [] });
  });

  it('a reset', async () => {
    const sim = await start();
    await push(sim);
    await send(sim, 'PUT', '/_sim/faults', {
      rules: [{ operation: 'query', probability: 1, latencyMs: [1, 1] }],
    });
    expect((await send(sim, 'POST', '/_sim/reset')).status).toBe(204);
    expect(saved()).toMatchObject({ prompts: [], next: [], faults: { rules: [] } });
  });

  it('a move of the clock', async () => {
    const sim = await start();
    const answer = await send(sim, 'POST', '/_sim/clock/advance', { seconds: 1000 });
    expect(answer.status).toBe(200);
    expect(saved().clockAheadMs).toBeGreaterThanOrEqual(999_000);
  });

  // What a Daraja API accepts is kept even when its code forgets to say it changed something (a
  // new API's store not yet watched): the answer of a request that may start something waits
  // for the state as it is.
  it('a push whose store did not say it changed', async () => {
    const sim = await start();
    const bearer = await token(sim.url);
    vi.spyOn(sim.prompts, 'emit').mockReturnValue(false);
    const id = await push(sim);
    expect(kept(id)).toMatchObject({ state: 'open' });
    await expect(
      call(`${sim.url}/mpesa/stkpushquery/v1/query`, {
        method: 'POST',
        headers: { ...JSON_BODY, Authorization: `Bearer ${bearer}` },
        body: queryBody(id),
      }),
    ).resolves.toMatchObject({ status: 500, body: { errorCode: '500.001.1001' } });
  });

  it('a request that changed nothing is not written again', async () => {
    const sim = await start();
    const id = await push(sim);
    await send(sim, 'POST', `/_sim/prompts/${id}/pin`, { pin: '1234' });
    const bearer = await token(sim.url);
    await expect.poll(() => kept(id)?.callback).toBe('delivered');
    const renames = vi.spyOn(fs.promises, 'rename');
    const answered = await call(`${sim.url}/mpesa/stkpushquery/v1/query`, {
      method: 'POST',
      headers: { ...JSON_BODY, Authorization: `Bearer ${bearer}` },
      body: queryBody(id),
    });
    expect(answered.body).toMatchObject({ ResultCode: '0' });
    expect(renames).not.toHaveBeenCalled();
  });

  it('a prompt ended by its own timer, before its callback is sent', async () => {
    // 254700000000 is forced to pay SIM_CALLBACK_DELAY_MS (50 ms here) after the push.
    const sim = await start();
    const id = await push(sim, '254700000000');
    await receiver.waitFor(1);
    // The callback said paid: a restart must not find the prompt open, to end it otherwise.
    const atDelivery = receiver.received[0]!;
    expect(atDelivery.body.Body.stkCallback).toMatchObject({
      CheckoutRequestID: id,
      ResultCode: 0,
    });
    expect(kept(id)).toMatchObject({ state: 'completed', resultCode: '0' });
  });
});

describe('a write of the file that fails', () => {
  const noSpace = () => Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });

  it("answers 500 in each API's error style, logs it once, and the next request tries again", async () => {
    const sim = await start();
    const bearer = await token(sim.url);
    const errors = vi.spyOn(sim.app.log, 'error');
    const renames = vi.spyOn(fs.promises, 'rename').mockRejectedValue(noSpace());
    const pushTo = (phone: string) =>
      call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
        method: 'POST',
        headers: { ...JSON_BODY, Authorization: `Bearer ${bearer}` },
        body: pushBody({ PartyA: phone, PhoneNumber: phone }, receiver.url),
      });
    const pushes = await Promise.all([pushTo('254712000001'), pushTo('254712000002')]);
    for (const answer of pushes) {
      expect(answer.status).toBe(500);
      expect(answer.body).toMatchObject({
        errorCode: '500.003.1001',
        errorMessage: 'Internal Server Error',
      });
    }
    const chosen = await call(`${sim.url}/_sim/numbers/0712345678/next`, {
      method: 'PUT',
      headers: JSON_BODY,
      body: { outcome: '1' },
    });
    expect(chosen.status).toBe(500);
    expect(chosen.body.error).toMatch(/^The simulator could not write its SIM_STATE file/);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]![0]).toBe(
      `SIM_STATE file ${file} could not be written: no space left on device`,
    );
    // Nothing left behind by the writes that failed.
    expect(fs.readdirSync(dir).sort()).toEqual(['state.json', 'state.json.lock']);

    // The disk has room again: the next answer waits for a write that holds all of it.
    renames.mockRestore();
    expect((await call(`${sim.url}/_sim/info`)).status).toBe(200);
    expect(saved().prompts).toHaveLength(2);
    expect(saved().next).toHaveLength(1);
    expect(errors).toHaveBeenCalledTimes(1);
    // The request log shows the answers that left.
    const logged = await call(`${sim.url}/_sim/log?kind=request&limit=2`);
    expect(logged.body.entries.map((entry: { status: number }) => entry.status)).toEqual([
      500, 500,
    ]);
  });
});
