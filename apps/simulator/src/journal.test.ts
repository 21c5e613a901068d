import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeJournal } from './journal.ts';
import { ReplayError, journalCallbacks, replayJournal } from './replay.ts';
import {
  call,
  pushBody,
  startReceiver,
  startSimulator,
  token,
  type Harness,
  type Receiver,
} from './test/harness.ts';

let sim: Harness;
let receiver: Receiver;
let dir: string;

beforeEach(async () => {
  sim = await startSimulator();
  receiver = await startReceiver();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-journal-'));
  return async () => {
    await sim.close();
    await receiver.close();
    fs.rmSync(dir, { recursive: true });
  };
});

async function payAndWait(phone = '254700000000') {
  const bearer = await token(sim.url);
  const answer = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
    body: pushBody({ PartyA: phone, PhoneNumber: phone }, receiver.url),
  });
  expect(answer.status).toBe(200);
  await receiver.waitFor(1);
  await expect.poll(() => sim.log.list({ kind: 'callback' }).length).toBe(1);
}

describe('the journal', () => {
  it('appends every request with its answer and every callback with the receiver’s answer, masked', async () => {
    const file = path.join(dir, 'journal.jsonl');
    const journal = writeJournal(file, sim.log);
    await payAndWait();
    await journal.close();
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.kind, line.path ?? line.url])).toEqual([
      ['request', '/oauth/v1/generate?grant_type=client_credentials'],
      ['request', '/mpesa/stkpush/v1/processrequest'],
      ['callback', receiver.url],
    ]);
    const [oauth, push, callback] = lines;
    expect(oauth.status).toBe(200);
    expect(oauth.authorization).toMatch(/^Basic …|^Basic .{4}…$/);
    expect(push.requestBody.Password).toMatch(/…$/);
    expect(push.responseBody).toMatchObject({ ResponseCode: '0' });
    expect(callback).toMatchObject({ status: 200, attempt: 1 });
    expect(callback.requestBody).toEqual(receiver.received[0]!.body);
  });

  it('keeps appending to a journal that already exists', async () => {
    const file = path.join(dir, 'journal.jsonl');
    fs.writeFileSync(file, '{"kind":"request","note":"from an earlier run"}\n');
    const journal = writeJournal(file, sim.log);
    await payAndWait();
    await journal.close();
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[0]!).note).toBe('from an earlier run');
  });
});

describe('replay', () => {
  it('sends a journal’s callbacks again, exactly as they were sent, and says what the receiver answered', async () => {
    const file = path.join(dir, 'journal.jsonl');
    const journal = writeJournal(file, sim.log);
    await payAndWait();
    await journal.close();
    const again = await startReceiver();
    try {
      again.answers.push(500);
      const results = await replayJournal(file, again.url);
      expect(results).toEqual([
        {
          line: 3,
          checkoutRequestId: expect.stringMatching(/^ws_CO_/),
          status: 500,
          error: null,
        },
      ]);
      expect(again.received.map((delivery) => delivery.body)).toEqual([receiver.received[0]!.body]);
    } finally {
      await again.close();
    }
  });

  it('says which line is wrong in a file that is not a journal', () => {
    expect(() => journalCallbacks('{"kind":"request"}\nnot json\n')).toThrow(
      new ReplayError('line 2 is not JSON: is this a SIM_JOURNAL file?'),
    );
    expect(() => journalCallbacks('[1, 2]\n')).toThrow(/line 1 is not a journal entry/);
    expect(() => journalCallbacks('{"kind":"callback"}\n')).toThrow(
      /line 1 is a callback with no body/,
    );
  });

  it('refuses a missing file and a URL that is not one, plainly', async () => {
    await expect(
      replayJournal(path.join(dir, 'none.jsonl'), 'http://127.0.0.1:9/'),
    ).rejects.toThrow(/cannot read .*none\.jsonl/);
    await expect(replayJournal(path.join(dir, 'none.jsonl'), 'localhost:3000')).rejects.toThrow(
      /must be an http or https URL|is not a URL/,
    );
  });

  it('reports a receiver that cannot be reached, and goes on', async () => {
    const file = path.join(dir, 'journal.jsonl');
    const journal = writeJournal(file, sim.log);
    await payAndWait();
    await journal.close();
    const results = await replayJournal(file, 'http://127.0.0.1:9/callback', { timeoutMs: 2000 });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ status: null, error: expect.any(String) });
  });
});
