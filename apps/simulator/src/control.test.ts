/** The /_sim control API and the payer's side: PIN, cancel, timeout, auto-approval, watching. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
let bearer: string;
let receiver: Receiver;

beforeAll(async () => {
  sim = await startSimulator({ SIM_PROMPT_TIMEOUT_S: '2' });
  bearer = await token(sim.url);
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  sim.prompts.reset();
  receiver = await startReceiver();
  return () => receiver.close();
});

async function pushTo(phone: string, target: Harness = sim, targetToken = bearer) {
  const answer = await call(`${target.url}/mpesa/stkpush/v1/processrequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${targetToken}` },
    body: pushBody({ PartyA: phone, PhoneNumber: phone }, receiver.url),
  });
  expect(answer.status).toBe(200);
  return answer.body.CheckoutRequestID as string;
}

const control = (p: string, body?: unknown, method = 'POST', target: Harness = sim) =>
  call(`${target.url}/_sim${p}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body,
  });

const resultOf = () => receiver.received.at(-1)?.body.Body.stkCallback.ResultCode;

describe('answering a prompt', () => {
  it('pays with the right PIN', async () => {
    const id = await pushTo('254708374149');
    const listed = await control('/prompts?phone=0708374149&state=open', undefined, 'GET');
    expect(
      listed.body.prompts.map((p: { checkoutRequestId: string }) => p.checkoutRequestId),
    ).toEqual([id]);
    const answer = await control(`/prompts/${id}/pin`, { pin: '1234' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      state: 'completed',
      resultCode: '0',
      receiptNumber: expect.stringMatching(/^[A-Z0-9]{10}$/),
    });
    await receiver.waitFor(1);
    expect(resultOf()).toBe(0);
  });

  it('gives 2001 for a wrong PIN', async () => {
    const id = await pushTo('254708374149');
    expect((await control(`/prompts/${id}/pin`, { pin: '0000' })).body.resultCode).toBe('2001');
    await receiver.waitFor(1);
    expect(resultOf()).toBe(2001);
  });

  it('gives 1032 on cancel and 1037 on timeout, and a prompt ends only once', async () => {
    const first = await pushTo('254708374149');
    expect((await control(`/prompts/${first}/cancel`)).body.resultCode).toBe('1032');
    const again = await control(`/prompts/${first}/pin`, { pin: '1234' });
    expect(again.status).toBe(409);
    const second = await pushTo('254708374149');
    expect((await control(`/prompts/${second}/timeout`)).body.resultCode).toBe('1037');
    await receiver.waitFor(2);
    expect(receiver.received.map((r) => r.body.Body.stkCallback.ResultCode)).toEqual([1032, 1037]);
    expect((await control('/prompts/ws_CO_nope/cancel')).status).toBe(404);
  });

  it('times out an unanswered prompt with 1037 after SIM_PROMPT_TIMEOUT_S', async () => {
    const id = await pushTo('254708374149');
    await receiver.waitFor(1, 4000);
    expect(resultOf()).toBe(1037);
    expect(sim.prompts.get(id)).toMatchObject({ completedBy: 'timeout' });
  });
});

describe('choosing what happens next', () => {
  it('forces a result code, a refusal or a manual answer for the next push to a number', async () => {
    expect((await control('/numbers/0711222333/next', { outcome: '1' }, 'PUT')).status).toBe(200);
    await pushTo('254711222333');
    await receiver.waitFor(1);
    expect(resultOf()).toBe(1);

    await control('/numbers/0711222333/next', { outcome: 'busy' }, 'PUT');
    const busy = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
      body: pushBody({ PartyA: '254711222333', PhoneNumber: '254711222333' }, receiver.url),
    });
    expect(busy.body.errorCode).toBe('500.003.02');

    await control('/numbers/0711222333/next', { outcome: 'spike-arrest' }, 'PUT');
    const spike = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
      body: pushBody({ PartyA: '254711222333', PhoneNumber: '254711222333' }, receiver.url),
    });
    expect(spike.body).toMatchObject({
      errorCode: '500.003.02',
      errorMessage: 'Error Occurred: Spike Arrest Violation',
    });

    // The choice is used once: 0700000000 behaves as the table says again afterwards.
    await control('/numbers/0700000000/next', { outcome: 'manual' }, 'PUT');
    const manual = await pushTo('254700000000');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sim.prompts.get(manual)?.state).toBe('open');
    await control(`/prompts/${manual}/cancel`);
    await pushTo('254700000000');
    await receiver.waitFor(3);
    expect(resultOf()).toBe(0);
  });

  it('refuses unknown outcomes, faults and numbers', async () => {
    expect((await control('/numbers/0711222333/next', { outcome: '42' }, 'PUT')).status).toBe(400);
    expect(
      (await control('/numbers/0711222333/next', { fault: { explode: true } }, 'PUT')).status,
    ).toBe(400);
    expect((await control('/numbers/12345/next', { outcome: '0' }, 'PUT')).status).toBe(400);
  });

  it('forgets everything on reset', async () => {
    await pushTo('254708374149');
    expect((await control('/reset')).status).toBe(204);
    expect((await control('/prompts', undefined, 'GET')).body.prompts).toEqual([]);
    expect((await control('/log', undefined, 'GET')).body.entries).toEqual([]);
  });
});

describe('auto-approval', () => {
  let auto: Harness;
  let autoToken: string;
  beforeAll(async () => {
    auto = await startSimulator({ SIM_AUTO_APPROVE_S: '1' });
    autoToken = await token(auto.url);
  });
  afterAll(async () => {
    await auto.close();
  });
  beforeEach(() => {
    // Forgets earlier payments too, which the repeat rule (17) would otherwise count.
    auto.prompts.reset();
  });

  it('approves other numbers after SIM_AUTO_APPROVE_S', async () => {
    const id = await pushTo('254708374149', auto, autoToken);
    await receiver.waitFor(1, 3000);
    expect(auto.prompts.get(id)).toMatchObject({ resultCode: '0', completedBy: 'auto-approval' });
  });

  it('waits while a phone page watches the number, and resumes when it closes', async () => {
    const events = new AbortController();
    const stream = await fetch(`${auto.url}/_sim/events?watch=1&phone=0708374149`, {
      signal: events.signal,
    });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const id = await pushTo('254708374149', auto, autoToken);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(auto.prompts.get(id)?.state).toBe('open');
    events.abort();
    await receiver.waitFor(1, 3000);
    expect(auto.prompts.get(id)).toMatchObject({ resultCode: '0', completedBy: 'auto-approval' });
  });
});

describe('the repeat rule', () => {
  it('gives 17 for the same amount to the same phone within 2 minutes', async () => {
    const first = await pushTo('254708374149');
    await control(`/prompts/${first}/pin`, { pin: '1234' });
    const second = await pushTo('254708374149');
    expect((await control(`/prompts/${second}/pin`, { pin: '1234' })).body.resultCode).toBe('17');
  });
});

describe('the virtual phone page', () => {
  it('is served with its scripts and styles, those it names and those its script imports', async () => {
    const page = await fetch(`${sim.url}/`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('Virtual phone');
    const named = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((match) => match[1]);
    expect(named).toEqual(['/phone.css', '/pay-menu.css', '/phone.js']);
    const imported = ['/log.js', '/money-sms.js', '/pay-menu.js', '/pay-outcome.js'];
    for (const asset of [...named, ...imported]) {
      expect((await fetch(`${sim.url}${asset}`)).status, asset).toBe(200);
    }
  });
});

describe('the settings', () => {
  // Their one list is the simulator's README (its npm page); docs/configuration.md links to it.
  it('are all documented in the simulator’s README, and no others', async () => {
    const { SETTING_NAMES } = await import('./config.ts');
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8');
    const documented = [...readme.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/gm)]
      .map(([, name]) => name!)
      .sort();
    expect(documented).toEqual([...SETTING_NAMES].sort());
  });
});
