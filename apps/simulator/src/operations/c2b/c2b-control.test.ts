/**
 * C2B's outcomes on demand and control routes (docs/daraja-protocol.md §M3.6): the magic numbers,
 * a number's next payment, the fault rules on the notifications, the request log, a payment from
 * the phone's menu, and SIM_STATE across a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { c2bClient, payment, registration, startMerchant, type Merchant } from '../../test/c2b.ts';
import { startSimulator, type Harness } from '../../test/harness.ts';

let sim: Harness;
let merchant: Merchant;
let client: ReturnType<typeof c2bClient>;
beforeEach(async () => {
  sim = await startSimulator();
  merchant = await startMerchant();
  client = c2bClient(sim);
  expect((await client.register(registration(merchant))).status).toBe(200);
  return async () => {
    await sim.close();
    await merchant.close();
  };
});
afterEach(() => client.control('/faults', 'DELETE'));

const validationOn = () =>
  client.control('/c2b/shortcodes/600984', 'PUT', { externalValidation: true });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('magic numbers and a number’s next payment', () => {
  it('are listed by GET /_sim/info', async () => {
    const info = await client.control('/info');
    expect(info.body.forcedNumbersByApi.c2b).toEqual({
      '254700300001': { resultCode: '1', meaning: expect.any(String) },
      '254700300408': { resultCode: 'no-answer', meaning: expect.any(String) },
    });
  });

  it('254700300001 cannot pay: nothing is sent', async () => {
    await validationOn();
    await client.simulate(payment({ Msisdn: '254700300001' }));
    expect(await client.settled()).toMatchObject({ stage: 'failed' });
    await sleep(100);
    expect(merchant.received).toEqual([]);
  });

  it('254700300408: the validation goes, its answer is not awaited, ResponseType decides', async () => {
    await validationOn();
    merchant.answers.push({ body: { ResultCode: 'C2B00012', ResultDesc: 'Rejected' } });
    await client.simulate(payment({ Msisdn: '254700300408' }));
    expect(await client.settled()).toMatchObject({
      stage: 'completed',
      validation: { decidedBy: 'response-type' },
    });
    expect(merchant.received.map((each) => each.path)).toEqual(['validation', 'confirmation']);
  });

  it('PUT /_sim/numbers/:phone/next with api c2b: once, with the fault on the confirmation', async () => {
    const next = await client.control('/numbers/254708374149/next', 'PUT', {
      api: 'c2b',
      outcome: '0',
      fault: { duplicates: 1 },
    });
    expect(next.status).toBe(200);
    await client.simulate(payment({ Msisdn: '254708374149' }));
    await merchant.waitFor(2);
    expect(merchant.of('confirmation')[1]).toEqual(merchant.of('confirmation')[0]);
    const bad = await client.control('/numbers/254708374149/next', 'PUT', {
      api: 'c2b',
      outcome: '1032',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^body\/outcome must be one of 0, 1, no-answer for c2b$/);
  });
});

describe('the callback fault rules on the notifications', () => {
  const rules = (error: string) =>
    client.control('/faults', 'PUT', {
      seed: 1,
      rules: [{ operation: 'callback', probability: 1, error }],
    });

  it('drop the confirmation: paid, nothing sent', async () => {
    await rules('drop');
    await client.simulate(payment());
    expect(await client.settled()).toMatchObject({ stage: 'completed', confirmation: 'withheld' });
    expect(merchant.received).toEqual([]);
  });

  it('drop the validation: no answer, so ResponseType decides', async () => {
    await validationOn();
    await rules('drop');
    await client.simulate(payment());
    expect(await client.settled()).toMatchObject({
      stage: 'completed',
      validation: { state: 'withheld', decidedBy: 'response-type' },
    });
  });

  it('duplicate it', async () => {
    await rules('duplicate');
    await client.simulate(payment());
    await merchant.waitFor(2);
    expect(merchant.of('confirmation')).toHaveLength(2);
  });

  it('make it late, on the simulator’s clock', async () => {
    await rules('late');
    await client.simulate(payment());
    await sleep(200);
    expect(merchant.received).toEqual([]);
    await client.control('/clock/advance', 'POST', { seconds: 120 });
    await merchant.waitFor(1);
  });
});

describe('the request log', () => {
  it('names each notification by its TransID and which it is', async () => {
    await validationOn();
    await client.simulate(payment());
    await merchant.waitFor(2);
    const { transId } = await client.settled();
    const entries = (await client.control('/log?kind=callback')).body.entries;
    expect(entries).toMatchObject([
      { transId, notification: 'confirmation', url: `${merchant.url}/confirmation`, status: 200 },
      { transId, notification: 'validation', url: `${merchant.url}/validation`, status: 200 },
    ]);
  });
});

describe('the control routes', () => {
  it('PUT /_sim/c2b/shortcodes/:shortcode refuses what it does not know', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['/c2b/shortcodes/12', {}, /^params\/shortcode must be 5 to 7 digits$/],
      ['/c2b/shortcodes/600984', { validationTimeoutMs: 5 }, /^body\/validationTimeoutMs must be/],
      ['/c2b/shortcodes/600984', { externalValidation: 'yes' }, /externalValidation/],
      ['/c2b/shortcodes/600984', { other: 1 }, /other/],
    ];
    for (const [route, body, error] of cases) {
      const answer = await client.control(route, 'PUT', body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatch(error);
    }
  });

  it('POST /_sim/c2b/pay pays from the phone’s menu by the same path; a wrong PIN pays nothing', async () => {
    await validationOn();
    const wrong = await client.control('/c2b/pay', 'POST', {
      msisdn: '0705912645',
      shortcode: '600984',
      account: 'ACC1',
      amount: 10,
      pin: '9999',
    });
    expect(wrong).toEqual({ status: 400, body: { error: 'Wrong PIN: nothing was paid' } });
    const paid = await client.control('/c2b/pay', 'POST', {
      msisdn: '0705912645',
      shortcode: '600984',
      account: 'ACC1',
      amount: 10,
      pin: '1234',
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ via: 'phone', msisdn: '254705912645', amount: 1000 });
    await merchant.waitFor(2);
    expect(merchant.of('confirmation')[0]).toMatchObject({
      TransID: paid.body.transId,
      BillRefNumber: 'ACC1',
      TransAmount: '10.00',
    });
    const one = await client.control(`/c2b/payments/${paid.body.transId}`);
    expect(one.body).toMatchObject({ stage: 'completed' });
    expect((await client.control('/c2b/payments/NONE')).status).toBe(404);
  });

  it('POST /_sim/c2b/pay refuses a bad amount', async () => {
    const answer = await client.control('/c2b/pay', 'POST', {
      msisdn: '0705912645',
      shortcode: '600984',
      amount: 1.5,
      pin: '1234',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/^body\/amount must be whole shillings/);
  });

  it('POST /_sim/reset forgets registrations and payments', async () => {
    await client.simulate(payment());
    await client.settled();
    await client.control('/reset', 'POST');
    expect((await client.control('/c2b')).body).toEqual({ shortcodes: [], payments: [] });
  });
});

describe('SIM_STATE', () => {
  it('keeps registrations and the validation switch, and delivers an owed confirmation after a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-c2b-'));
    const file = path.join(dir, 'state.json');
    let kept = await startSimulator({ SIM_STATE: file });
    try {
      let keptClient = c2bClient(kept);
      await keptClient.register(registration(merchant, { ResponseType: 'Cancelled' }), 'v2');
      await keptClient.control('/c2b/shortcodes/600984', 'PUT', { externalValidation: true });
      // The confirmation is owed for a minute of the simulator's clock when it stops.
      await keptClient.control('/numbers/254708374149/next', 'PUT', {
        api: 'c2b',
        outcome: '0',
        fault: { delayMs: 60_000 },
      });
      await keptClient.simulate(payment({ Msisdn: '254708374149' }));
      await merchant.waitFor(1);
      await sleep(100);
      await kept.close();
      expect(merchant.of('confirmation')).toEqual([]);

      kept = await startSimulator({ SIM_STATE: file });
      keptClient = c2bClient(kept);
      await merchant.waitFor(2);
      expect(merchant.of('confirmation')[0]).toMatchObject({ MSISDN: '2547 ***** 149' });
      expect(await keptClient.settled()).toMatchObject({ stage: 'completed' });
      const { body } = await keptClient.control('/c2b');
      expect(body.shortcodes[0]).toMatchObject({
        externalValidation: true,
        registration: { version: 'v2', responseType: 'Cancelled' },
      });
    } finally {
      await kept.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
