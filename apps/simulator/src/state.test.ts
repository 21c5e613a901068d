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
import { SAVE_WITHIN_MS, readStateFile } from './state.ts';
import type { NewPrompt } from './prompts.ts';
import {
  call,
  pushBody,
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
    expect(saved()).toMatchObject({ version: 1, prompts: [], tokens: [], next: [] });
    const id = await push(sim);
    await sleep(100);
    const state = saved();
    expect(state.prompts.map((prompt) => [prompt.checkoutRequestId, prompt.state])).toEqual([
      [id, 'open'],
    ]);
    expect(state.tokens).toHaveLength(1);
  });

  it('writes a burst of changes in a few writes, each replacing the file whole', async () => {
    const sim = await start();
    const renames = vi.spyOn(fs, 'renameSync');
    for (let n = 0; n < 1000; n++)
      sim.prompts.create(newPrompt(`25471${String(n).padStart(7, '0')}`));
    expect(renames).not.toHaveBeenCalled();
    await sleep(SAVE_WITHIN_MS * 4);
    expect(renames.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(renames.mock.calls.length).toBeLessThanOrEqual(2);
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
    await sleep(100);
    expect(saved().prompts[0]).toMatchObject({ state: 'completed', callback: 'delivered' });

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
    await sleep(SAVE_WITHIN_MS + 50);
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
    ['another version', '{"version":2}', /is not a state file this simulator wrote \(version: /],
  ])('%s: it is named, and left as it is', async (_case, content) => {
    fs.writeFileSync(file, content);
    const refusal = startSimulator({ SIM_STATE: file });
    await expect(refusal).rejects.toThrow(/^SIM_STATE file .*state\.json is not/);
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
    await sleep(SAVE_WITHIN_MS + 50);
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

describe('a move of the clock', () => {
  it('is in the file by the time it is answered', async () => {
    const sim = await start();
    const answer = await call(`${sim.url}/_sim/clock/advance`, {
      method: 'POST',
      headers: JSON_BODY,
      body: { seconds: 1000 },
    });
    expect(answer.status).toBe(200);
    expect(saved().clockAheadMs).toBeGreaterThanOrEqual(999_000);
  });
});
