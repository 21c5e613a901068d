/**
 * The development receiver (docs/webhooks.md, "The development receiver"): what the shop's API
 * sends in simulator mode is kept byte for byte with its signing headers, read back newest first,
 * made to fail on purpose with `?fail=`, bounded, emptied by a reset, and described.
 */
import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, startSimulator, type Harness } from '../../test/harness.ts';
import { MAX_INBOX_BODY_BYTES, MAX_INBOX_ENTRIES } from './webhook-inbox.ts';

let sim: Harness;
beforeEach(async () => {
  sim = await startSimulator();
});
afterEach(() => sim.close());

const inbox = (query = '') => `${sim.url}/_sim/webhooks/inbox${query}`;

/** An event as the shop's API posts it: the body's exact bytes signed with `secret`. */
function signedEvent(id: string, secret = 'whsec_test') {
  const body = `{"id":"${id}","type":"payment.succeeded","created":1795770900,"data":{"payment":{"amount":100}}}`;
  const t = 1795770900;
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'Mpesa-Event-Id': id,
      'Mpesa-Signature': `t=${t},v1=${v1}`,
    },
  };
}

const post = (event: ReturnType<typeof signedEvent>, query = '') =>
  call(inbox(query), { method: 'POST', headers: event.headers, raw: event.body });

describe('the development receiver', () => {
  it('keeps each webhook exactly as sent, with its signature, newest first', async () => {
    const first = signedEvent('evt_1');
    const second = signedEvent('evt_2');
    expect((await post(first)).status).toBe(200);
    expect((await post(second)).status).toBe(200);

    const { status, body } = await call(inbox());
    expect(status).toBe(200);
    expect(body.entries.map((entry: { eventId: string }) => entry.eventId)).toEqual([
      'evt_2',
      'evt_1',
    ]);
    const [kept] = body.entries;
    expect(kept).toMatchObject({
      eventType: 'payment.succeeded',
      eventIdHeader: 'evt_2',
      signature: second.headers['Mpesa-Signature'],
      contentType: 'application/json',
      attempt: 1,
      status: 200,
    });
    // The bytes themselves, so that a developer can check the signature against them.
    expect(kept.body).toBe(second.body);
    const [, v1] = /v1=([0-9a-f]+)/.exec(kept.signature)!;
    expect(createHmac('sha256', 'whsec_test').update(`1795770900.${kept.body}`).digest('hex')).toBe(
      v1,
    );
  });

  it('takes any body, JSON or not, and an empty one', async () => {
    expect((await call(inbox(), { method: 'POST', raw: 'plain words' })).status).toBe(200);
    expect(
      (
        await call(inbox(), {
          method: 'POST',
          headers: { 'Content-Type': 'text/xml' },
          raw: '<a/>',
        })
      ).status,
    ).toBe(200);
    expect((await call(inbox(), { method: 'POST' })).status).toBe(200);
    const { body } = await call(inbox());
    expect(body.entries.map((entry: { body: string }) => entry.body)).toEqual([
      '',
      '<a/>',
      'plain words',
    ]);
    expect(body.entries[1]).toMatchObject({ eventType: null, eventId: null, signature: null });
  });

  it('answers 500 to the first attempts ?fail= asks for, per event, then 200', async () => {
    const event = signedEvent('evt_retry');
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt++)
      statuses.push((await post(event, '?fail=2')).status);
    expect(statuses).toEqual([500, 500, 200]);
    // Another event is counted on its own.
    expect((await post(signedEvent('evt_other'), '?fail=1')).status).toBe(500);
    const { body } = await call(inbox());
    expect(body.entries.slice(1).map((entry: { attempt: number }) => entry.attempt)).toEqual([
      3, 2, 1,
    ]);
    expect((await call(inbox('?fail=many'), { method: 'POST', raw: '{}' })).status).toBe(400);
  });

  it(`keeps the last ${MAX_INBOX_ENTRIES}, and refuses a body over ${MAX_INBOX_BODY_BYTES} bytes`, async () => {
    for (let n = 0; n < MAX_INBOX_ENTRIES + 5; n++) await post(signedEvent(`evt_${n}`));
    const { body } = await call(inbox());
    expect(body.entries).toHaveLength(MAX_INBOX_ENTRIES);
    expect(body.entries[0].eventId).toBe(`evt_${MAX_INBOX_ENTRIES + 4}`);

    const huge = await call(inbox(), { method: 'POST', raw: 'x'.repeat(MAX_INBOX_BODY_BYTES + 1) });
    expect(huge.status).toBe(413);
    expect((await call(inbox())).body.entries).toHaveLength(MAX_INBOX_ENTRIES);
  });

  it('is emptied by DELETE and by POST /_sim/reset', async () => {
    await post(signedEvent('evt_a'));
    expect((await call(inbox(), { method: 'DELETE' })).status).toBe(204);
    expect((await call(inbox())).body.entries).toEqual([]);
    await post(signedEvent('evt_b'));
    await call(`${sim.url}/_sim/reset`, { method: 'POST' });
    expect((await call(inbox())).body.entries).toEqual([]);
    // A reset forgets the counts too: ?fail= starts again.
    expect((await post(signedEvent('evt_b'), '?fail=1')).status).toBe(500);
  });

  it('is described in the simulator’s OpenAPI document', async () => {
    const { body } = await call(`${sim.url}/_sim/openapi.json`);
    const paths = body.paths['/_sim/webhooks/inbox'];
    expect(Object.keys(paths).sort()).toEqual(['delete', 'get', 'post']);
    expect(paths.post.summary).toMatch(/development receiver/);
  });
});
