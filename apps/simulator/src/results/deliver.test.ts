/**
 * A Result's delivery (docs/daraja-protocol.md §M1.5, §M1.6) from a running simulator to a local
 * receiver: once, on the simulator's clock, under the `callback` fault rules, in the request log
 * and the event stream; and what any POST to a merchant hands back.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverCallback } from '../callbacks.ts';
import { startResultRig, type ResultRig } from '../test/results.ts';

let rig: ResultRig;
afterEach(() => rig.close());

const ACCEPTED = JSON.stringify({ ResultCode: 0, ResultDesc: 'Accepted' });

describe('a Result’s delivery', () => {
  beforeEach(async () => {
    rig = await startResultRig();
  });

  it('posts the Result once to the ResultURL, and hands back what the receiver said', async () => {
    const made = rig.outcome();
    const delivered = await rig.deliver(made);
    expect(rig.results.received).toHaveLength(1);
    expect(rig.results.received[0]!.body).toEqual(delivered.body);
    expect(delivered.body?.Result).toMatchObject({
      ResultType: 0,
      ResultCode: 0,
      ConversationID: made.conversation.conversationId,
      OriginatorConversationID: made.conversation.originatorConversationId,
    });
    expect(delivered).toMatchObject({
      state: 'delivered',
      answer: { status: 200, responseBody: ACCEPTED, error: null },
      notice: null,
    });
    expect(rig.timeouts.received).toEqual([]);
  });

  it('tries no delivery again when the receiver fails, as Daraja’s docs say', async () => {
    rig.results.answers.push(500);
    const delivered = await rig.deliver();
    expect(delivered).toMatchObject({ state: 'failed', answer: { status: 500 } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rig.results.received).toHaveLength(1);
  });

  it('waits on the simulator’s clock, which POST /_sim/clock/advance brings forward', async () => {
    const delivering = rig.deliver(rig.outcome(), { delayMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rig.results.received).toEqual([]);
    expect((await rig.control('/clock/advance', { seconds: 60 })).status).toBe(200);
    expect(await delivering).toMatchObject({ state: 'delivered' });
    expect(rig.results.received).toHaveLength(1);
  });

  it('stops, sending nothing, when its operation was reset meanwhile', async () => {
    let current = true;
    const delivering = rig.deliver(rig.outcome(), { current: () => current, delayMs: 100 });
    current = false;
    expect(await delivering).toEqual({ state: 'stopped', answer: null, body: null, notice: null });
    expect(rig.results.received).toEqual([]);
  });

  it('names each attempt by the Result’s ids in the request log', async () => {
    const made = rig.outcome();
    const delivered = await rig.deliver(made);
    const entries = (await rig.control('/log?kind=callback', undefined, 'GET')).body.entries;
    expect(entries).toEqual([
      {
        id: expect.any(Number),
        at: expect.any(String),
        kind: 'callback',
        conversationId: made.conversation.conversationId,
        originatorConversationId: made.conversation.originatorConversationId,
        url: rig.results.url,
        attempt: 1,
        requestBody: delivered.body,
        status: 200,
        responseBody: ACCEPTED,
        error: null,
        durationMs: expect.any(Number),
      },
    ]);
  });

  it('shows each attempt on the event stream', async () => {
    const events = new AbortController();
    const stream = await fetch(`${rig.sim.url}/_sim/events`, { signal: events.signal });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const made = rig.outcome();
    await rig.deliver(made);
    let text = '';
    while (!text.includes(made.conversation.conversationId)) text += (await reader.read()).value;
    events.abort();
    const event = text.split('\n\n').find((each) => each.includes('AG_'))!;
    expect(event).toMatch(/^event: log\ndata: /);
    expect(JSON.parse(event.slice(event.indexOf('data: ') + 6))).toMatchObject({
      kind: 'callback',
      conversationId: made.conversation.conversationId,
      status: 200,
    });
  });
});

describe('the `callback` fault rules on a Result', () => {
  beforeEach(async () => {
    rig = await startResultRig();
  });

  const rules = (rule: Record<string, unknown>) =>
    rig.control(
      '/faults',
      { seed: 1, rules: [{ operation: 'callback', probability: 1, ...rule }] },
      'PUT',
    );

  it('drop it: nothing is sent or logged', async () => {
    expect((await rules({ error: 'drop' })).status).toBe(200);
    expect(await rig.deliver()).toMatchObject({ state: 'withheld', answer: null });
    expect(rig.results.received).toEqual([]);
    expect(rig.sim.log.list({ kind: 'callback' })).toEqual([]);
  });

  it('add to the Result’s own fault: asked to be dropped, it is, with no rule', async () => {
    expect(await rig.deliver(rig.outcome(), { fault: { drop: true } })).toMatchObject({
      state: 'withheld',
    });
    expect(rig.results.received).toEqual([]);
  });

  it('duplicate it: the same body twice, both logged', async () => {
    await rules({ error: 'duplicate' });
    expect(await rig.deliver()).toMatchObject({ state: 'delivered' });
    expect(rig.results.received).toHaveLength(2);
    expect(rig.results.received[1]!.body).toEqual(rig.results.received[0]!.body);
    expect(rig.sim.log.list({ kind: 'callback' })).toHaveLength(2);
  });

  it('make it late, on the simulator’s clock', async () => {
    await rules({ error: 'late' });
    const delivering = rig.deliver();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(rig.results.received).toEqual([]);
    await rig.control('/clock/advance', { seconds: 120 });
    expect(await delivering).toMatchObject({ state: 'delivered' });
    expect(rig.results.received).toHaveLength(1);
  });
});

describe('the settings', () => {
  it('write the Result in the shapes asked for', async () => {
    rig = await startResultRig({
      SIM_RESULT_STRINGS: 'true',
      SIM_RESULT_FAILURE_PARAMETER: 'true',
      SIM_RESULT_REFERENCE_ARRAY: 'true',
    });
    await rig.deliver({
      ...rig.outcome(),
      resultCode: '2001',
      resultDesc: 'The initiator information is invalid.',
    });
    expect(rig.results.received[0]!.body.Result).toMatchObject({
      ResultType: '0',
      ResultCode: '2001',
      ResultParameters: { ResultParameter: { Key: 'BOCompletedTime', Value: expect.any(String) } },
      ReferenceData: { ReferenceItem: [{ Key: 'QueueTimeoutURL', Value: expect.any(String) }] },
    });
  });

  it('SIM_QUEUE_TIMEOUT_NOTICE_MS sends a notice to QueueTimeOutURL, then the Result that long after', async () => {
    rig = await startResultRig({ SIM_QUEUE_TIMEOUT_NOTICE_MS: '300' });
    const made = rig.outcome();
    const delivered = await rig.deliver(made);
    expect(rig.timeouts.received).toHaveLength(1);
    expect(rig.timeouts.received[0]!.body.Result).toMatchObject({
      ResultCode: 1,
      ResultDesc: 'The service request has timed out.',
      ConversationID: made.conversation.conversationId,
    });
    expect(rig.results.received[0]!.body.Result).toMatchObject({ ResultCode: 0 });
    expect(rig.results.received[0]!.at - rig.timeouts.received[0]!.at).toBeGreaterThanOrEqual(290);
    expect(delivered).toMatchObject({ state: 'delivered', notice: { state: 'delivered' } });
    // Newest first: the notice, then the Result, each by the request's ids.
    expect(rig.sim.log.list({ kind: 'callback' })).toMatchObject([
      { url: rig.results.url, conversationId: made.conversation.conversationId },
      { url: rig.timeouts.url, conversationId: made.conversation.conversationId },
    ]);
  });
});

describe('any POST to a merchant (C2B’s validation will read the answer)', () => {
  let merchant: http.Server;
  let url: string;
  beforeEach(async () => {
    rig = await startResultRig();
    // Answers a refusal, as a merchant refusing a C2B payment would (§M3.4); never answers /silent.
    merchant = http.createServer((request, response) => {
      if (request.url === '/silent') return;
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ ResultCode: 'C2B00011', ResultDesc: 'Rejected' }));
    });
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
    return () => {
      merchant.closeAllConnections();
      merchant.close();
    };
  });

  const post = (to: string, timeoutMs?: number) =>
    deliverCallback(
      {
        ids: { conversationId: 'AG_20240706_00000000000000000000', originatorConversationId: 'x' },
        url: to,
        body: { TransID: 'SG632NMUAB' },
        fault: {},
        current: () => true,
        timeoutMs,
      },
      rig.context,
    );

  it('hands back the receiver’s status and body', async () => {
    expect(await post(`${url}/validation`)).toEqual({
      state: 'delivered',
      answer: {
        status: 200,
        responseBody: JSON.stringify({ ResultCode: 'C2B00011', ResultDesc: 'Rejected' }),
        error: null,
        durationMs: expect.any(Number),
      },
    });
  });

  it('says there was no answer within its own time, whatever SIM_CALLBACK_TIMEOUT_MS says', async () => {
    const started = Date.now();
    const delivered = await post(`${url}/silent`, 300);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(delivered).toMatchObject({
      state: 'failed',
      answer: { status: null, responseBody: null, error: 'no answer within 300 ms' },
    });
  });
});
