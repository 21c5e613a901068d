/**
 * A Result in the journal (SIM_JOURNAL) and sent again by `daraja-simulator replay`
 * (docs/daraja-protocol.md §M1.6), beside the STK callbacks of journals written before Results.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeJournal } from '../journal.ts';
import { replayJournal } from '../replay.ts';
import { startReceiver } from '../test/harness.ts';
import { runToEnd } from '../test/process.ts';
import { startResultRig, type ResultRig } from '../test/results.ts';

let rig: ResultRig;

describe('the journal and replay', () => {
  let dir: string;
  beforeEach(async () => {
    rig = await startResultRig();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-results-'));
  });
  afterEach(async () => {
    await rig.close();
    fs.rmSync(dir, { recursive: true });
  });

  async function journalOfOneResult() {
    const file = path.join(dir, 'journal.jsonl');
    const journal = writeJournal(file, rig.sim.log);
    const made = rig.outcome();
    await rig.deliver(made);
    await journal.close();
    return { file, made };
  }

  it('journals the Result by its ids, and replay sends it again exactly', async () => {
    const { file, made } = await journalOfOneResult();
    const [line] = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((each) => JSON.parse(each));
    expect(line).toMatchObject({
      kind: 'callback',
      conversationId: made.conversation.conversationId,
      originatorConversationId: made.conversation.originatorConversationId,
      requestBody: rig.results.received[0]!.body,
    });
    const again = await startReceiver();
    try {
      expect(await replayJournal(file, again.url)).toEqual([
        {
          line: 1,
          checkoutRequestId: null,
          conversationId: made.conversation.conversationId,
          status: 200,
          error: null,
        },
      ]);
      expect(again.received.map((each) => each.body)).toEqual([rig.results.received[0]!.body]);
    } finally {
      await again.close();
    }
  });

  it('daraja-simulator replay names the Result by its ConversationID', async () => {
    const { file, made } = await journalOfOneResult();
    const result = await runToEnd(['replay', file, '--to', rig.results.url]);
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')[0]).toBe(
      `line 1: ${made.conversation.conversationId} → 200`,
    );
  });

  it('still replays a journal written before Results existed, beside a Result', async () => {
    const { file } = await journalOfOneResult();
    const stk = { Body: { stkCallback: { CheckoutRequestID: 'ws_CO_1', ResultCode: 0 } } };
    const older = `${JSON.stringify({ id: 1, kind: 'callback', checkoutRequestId: 'ws_CO_1', url: 'x', attempt: 1, requestBody: stk, status: 200, responseBody: '', error: null, durationMs: 1 })}\n`;
    fs.writeFileSync(file, older + fs.readFileSync(file, 'utf8'));
    const replayed = await replayJournal(file, rig.results.url);
    expect(
      replayed.map(({ checkoutRequestId, conversationId }) => [checkoutRequestId, conversationId]),
    ).toEqual([
      ['ws_CO_1', undefined],
      [null, expect.stringMatching(/^AG_/)],
    ]);
    expect(rig.results.received.at(-2)!.body).toEqual(stk);
  });
});
