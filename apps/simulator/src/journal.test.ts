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
import { runToEnd } from './test/process.ts';

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

describe('a journal that cannot be written any more', () => {
  it.runIf(fs.existsSync('/dev/full'))(
    'says so once, in a sentence, and the simulator goes on and closes',
    async () => {
      const said: string[] = [];
      const journal = writeJournal('/dev/full', sim.log, (message) => said.push(message));
      await payAndWait();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(
        /^SIM_JOURNAL \/dev\/full could not be written \(.+\): the journal stops here; the simulator goes on\.$/,
      );
      // Still paying, and closing is not held up.
      await payAndWait();
      await journal.close();
      expect(said).toHaveLength(1);
    },
  );
});

describe('SIM_JOURNAL', () => {
  it('journals a running simulator’s OAuth, push and callback, with their answers, secrets masked', async () => {
    const file = path.join(dir, 'run.jsonl');
    const own = await startSimulator({ SIM_JOURNAL: file });
    const body = pushBody({ PartyA: '254700000000', PhoneNumber: '254700000000' }, receiver.url);
    let bearer: string;
    try {
      bearer = await token(own.url);
      const answer = await call(`${own.url}/mpesa/stkpush/v1/processrequest`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
        body,
      });
      expect(answer.status).toBe(200);
      await receiver.waitFor(1);
      await expect.poll(() => own.log.list({ kind: 'callback' }).length).toBe(1);
    } finally {
      await own.close();
    }
    const text = fs.readFileSync(file, 'utf8');
    const [oauth, push, callback, ...rest] = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rest).toEqual([]);
    expect(oauth).toMatchObject({
      kind: 'request',
      method: 'GET',
      path: '/oauth/v1/generate?grant_type=client_credentials',
      // As the log masks them: the first 4 characters of base64("key:secret").
      authorization: `Basic ${Buffer.from('key:secret').toString('base64').slice(0, 4)}…`,
      status: 200,
      responseBody: { access_token: `${bearer.slice(0, 4)}…`, expires_in: '3599' },
    });
    expect(push).toMatchObject({
      kind: 'request',
      method: 'POST',
      path: '/mpesa/stkpush/v1/processrequest',
      authorization: `Bearer ${bearer.slice(0, 4)}…`,
      requestBody: { Password: expect.stringMatching(/^.{4}…$/), PhoneNumber: '254700000000' },
      status: 200,
      responseBody: { ResponseCode: '0', CheckoutRequestID: expect.stringMatching(/^ws_CO_/) },
    });
    expect(callback).toMatchObject({
      kind: 'callback',
      url: receiver.url,
      attempt: 1,
      status: 200,
      responseBody: '{"ResultCode":0,"ResultDesc":"Accepted"}',
    });
    expect(callback.requestBody).toEqual(receiver.received[0]!.body);
    // Nothing in it that would let someone call Daraja as the merchant.
    expect(text).not.toContain(bearer);
    expect(text).not.toContain(Buffer.from('key:secret').toString('base64'));
    expect(text).not.toContain(body.Password);
  });

  it('in a folder that does not exist stops the start with a sentence naming it', async () => {
    const file = path.join(dir, 'nowhere', 'run.jsonl');
    await expect(startSimulator({ SIM_JOURNAL: file })).rejects.toThrow(
      `SIM_JOURNAL cannot write the journal ${file}: its folder ${path.dirname(file)} does not exist.`,
    );
  });
});

describe('daraja-simulator replay', () => {
  async function journalOfOnePayment(): Promise<string> {
    const file = path.join(dir, 'journal.jsonl');
    const journal = writeJournal(file, sim.log);
    await payAndWait();
    await journal.close();
    return file;
  }

  it('sends the callbacks again, prints the receiver’s answer to each, and exits 0 when all got a 2xx', async () => {
    const file = await journalOfOnePayment();
    const again = await startReceiver();
    try {
      const result = await runToEnd(['replay', file, '--to', again.url]);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout.trim().split('\n')).toEqual([
        expect.stringMatching(/^line 3: ws_CO_\d+ → 200$/),
        `1 of 1 callbacks sent to ${again.url} answered with a 2xx.`,
      ]);
      expect(again.received.map((delivery) => delivery.body)).toEqual([receiver.received[0]!.body]);
    } finally {
      await again.close();
    }
  });

  it('exits 1 when a callback is refused or gets no answer', async () => {
    const file = await journalOfOnePayment();
    const again = await startReceiver();
    try {
      again.answers.push(500);
      const refused = await runToEnd(['replay', file, '--to', again.url]);
      expect(refused.status).toBe(1);
      expect(refused.stdout).toMatch(/^line 3: ws_CO_\d+ → 500$/m);
      expect(refused.stderr.trim()).toBe(
        `0 of 1 callbacks sent to ${again.url} answered with a 2xx.`,
      );
    } finally {
      await again.close();
    }
    const nobody = await runToEnd(['replay', file, '--to', 'http://127.0.0.1:9/callback']);
    expect(nobody.status).toBe(1);
    expect(nobody.stdout).toMatch(/^line 3: ws_CO_\d+ → no answer: \S+/m);
  });

  it.each([
    [
      'a file that does not exist',
      null,
      /^replay: cannot read .*none\.jsonl: there is no such file\.$/,
    ],
    [
      'a line that is not a journal entry',
      '{"kind":"request"}\nnot json\n',
      /^replay: .*bad\.jsonl: line 2 is not JSON: is this a SIM_JOURNAL file\?$/,
    ],
    [
      'an entry of a kind a journal does not have',
      '{"kind":"prompt"}\n',
      /^replay: .*bad\.jsonl: line 1 is not a journal entry \(its kind is "prompt"/,
    ],
    [
      'a journal with no callbacks',
      '{"kind":"request"}\n',
      /bad\.jsonl holds no callbacks: nothing was sent\.$/,
    ],
  ])('exits 1 on %s, saying so in a line', async (_case, content, message) => {
    const file = path.join(dir, content === null ? 'none.jsonl' : 'bad.jsonl');
    if (content !== null) fs.writeFileSync(file, content);
    const result = await runToEnd(['replay', file, '--to', receiver.url]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toMatch(message);
    expect(receiver.received).toEqual([]);
  });

  it('exits 1 on a URL that is not http or https', async () => {
    const file = await journalOfOnePayment();
    const result = await runToEnd(['replay', file, '--to', 'ftp://127.0.0.1/cb']);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('--to ftp://127.0.0.1/cb must be an http or https URL.');
  });
});
