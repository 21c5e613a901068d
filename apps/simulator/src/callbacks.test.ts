/**
 * Callbacks exactly as docs/daraja-protocol.md §4 shows them, and the delivery faults of §4.3 and
 * §10.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESULT_CODES } from './catalogue.ts';
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

let sim: Harness;
let bearer: string;
let receiver: Receiver;

beforeAll(async () => {
  sim = await startSimulator();
  bearer = await token(sim.url);
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  sim.prompts.reset();
  sim.log.clear();
  receiver = await startReceiver();
  return async () => {
    // A callback is logged once its answer is read, which on a busy machine can come after the
    // test that sent it has ended and the next has cleared the log: each test ends once every
    // callback has its answer.
    await expect
      .poll(() => sim.prompts.list().some((prompt) => prompt.callback === 'delivering'))
      .toBe(false);
    await receiver.close();
  };
});

async function pushTo(phone: string, amount = 10, callbackUrl = receiver.url) {
  const answer = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
    body: pushBody(
      { PartyA: phone, PhoneNumber: phone, Amount: amount, AccountReference: 'INV-9' },
      callbackUrl,
    ),
  });
  expect(answer.status).toBe(200);
  return answer.body as { CheckoutRequestID: string; MerchantRequestID: string };
}

const control = (path: string, body?: unknown, method = 'POST') =>
  call(`${sim.url}/_sim${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body,
  });

describe('result callbacks (§4)', () => {
  it('posts a success with Amount, a 10-character receipt, Balance with no Value, an EAT TransactionDate and a numeric PhoneNumber', async () => {
    const ack = await pushTo('254700000000', 450);
    await receiver.waitFor(1);
    const body = receiver.received[0]?.body;
    expect(body).toEqual({
      Body: {
        stkCallback: {
          MerchantRequestID: ack.MerchantRequestID,
          CheckoutRequestID: ack.CheckoutRequestID,
          ResultCode: 0,
          ResultDesc: 'The service request is processed successfully.',
          CallbackMetadata: {
            Item: [
              { Name: 'Amount', Value: 450 },
              { Name: 'MpesaReceiptNumber', Value: expect.stringMatching(/^[A-Z][A-Z0-9]{9}$/) },
              { Name: 'Balance' },
              { Name: 'TransactionDate', Value: expect.any(Number) },
              { Name: 'PhoneNumber', Value: 254700000000 },
            ],
          },
        },
      },
    });
    const date = String(body.Body.stkCallback.CallbackMetadata.Item[3].Value);
    expect(date).toMatch(/^\d{14}$/);
    const eatNow = new Date(Date.now() + 3 * 3600_000)
      .toISOString()
      .slice(0, 13)
      .replace(/[-T]/g, '');
    expect(date.slice(0, 10)).toBe(eatNow);
  });

  it.each([
    ['254700000001', 1],
    ['254700001032', 1032],
    ['254700001037', 1037],
    ['254700001019', 1019],
    ['254700002001', 2001],
    ['254700000017', 17],
  ])('posts the forced failure for %s with no CallbackMetadata at all', async (phone, code) => {
    await pushTo(phone);
    await receiver.waitFor(1);
    const callback = receiver.received[0]?.body.Body.stkCallback;
    expect(callback.ResultCode).toBe(code);
    expect(callback.ResultDesc).toBe(RESULT_CODES[String(code)]);
    expect('CallbackMetadata' in callback).toBe(false);
  });

  it('can produce every ResultCode of the catalogue, SFC_IC0003 as text', async () => {
    for (const code of Object.keys(RESULT_CODES)) {
      const { CheckoutRequestID } = await pushTo('254711000000');
      const ended = await control(`/prompts/${CheckoutRequestID}/result`, { resultCode: code });
      expect(ended.status).toBe(200);
    }
    await receiver.waitFor(Object.keys(RESULT_CODES).length);
    const codes = receiver.received.map((r) => r.body.Body.stkCallback.ResultCode);
    expect(codes).toEqual(
      Object.keys(RESULT_CODES).map((code) => (/^\d+$/.test(code) ? Number(code) : code)),
    );
  });

  it('never calls back for 0700009999, but an STK query finds the payment', async () => {
    const { CheckoutRequestID } = await pushTo('254700009999');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toEqual([]);
    const answer = await call(`${sim.url}/mpesa/stkpushquery/v1/query`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
      body: queryBody(CheckoutRequestID),
    });
    expect(answer.body).toMatchObject({
      ResultCode: '0',
      ResultDesc: 'The service request is processed successfully.',
    });
    expect(sim.prompts.get(CheckoutRequestID)?.callback).toBe('withheld');
  });

  it('delivers once and does not retry by default, even when the receiver fails', async () => {
    receiver.answers.push(500);
    await pushTo('254700000000');
    await receiver.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(1);
  });
});

describe('delivery faults through the control API (§4.3)', () => {
  it('delivers twice', async () => {
    await control('/numbers/0700000000/next', { fault: { duplicates: 1 } }, 'PUT');
    await pushTo('254700000000');
    await receiver.waitFor(2);
    expect(receiver.received[0]?.body).toEqual(receiver.received[1]?.body);
  });

  it('delivers late', async () => {
    await control('/numbers/0700000000/next', { fault: { delayMs: 400 } }, 'PUT');
    const started = Date.now();
    await pushTo('254700000000');
    await receiver.waitFor(1);
    expect(receiver.received[0]!.at - started).toBeGreaterThanOrEqual(400);
  });

  it('never delivers', async () => {
    await control('/numbers/0700000000/next', { fault: { drop: true } }, 'PUT');
    const { CheckoutRequestID } = await pushTo('254700000000');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toEqual([]);
    expect(sim.prompts.get(CheckoutRequestID)).toMatchObject({
      state: 'completed',
      resultCode: '0',
      callback: 'withheld',
    });
  });

  it('retries on a non-2xx answer when asked to', async () => {
    receiver.answers.push(503, 500);
    await control(
      '/numbers/0700000000/next',
      { fault: { retries: 3, retryIntervalMs: 50 } },
      'PUT',
    );
    const { CheckoutRequestID } = await pushTo('254700000000');
    await receiver.waitFor(3);
    await expect.poll(() => sim.prompts.get(CheckoutRequestID)?.callback).toBe('delivered');
    expect(receiver.received).toHaveLength(3);
  });

  it('tries no delivery again by default, as Safaricom is said to do', async () => {
    receiver.answers.push(503);
    const { CheckoutRequestID } = await pushTo('254700000000');
    await receiver.waitFor(1);
    await expect.poll(() => sim.prompts.get(CheckoutRequestID)?.callback).toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(1);
  });

  it('retries with a doubling wait when SIM_CALLBACK_RETRIES asks it to', async () => {
    const retrying = await startSimulator({
      SIM_CALLBACK_RETRIES: '2',
      SIM_CALLBACK_RETRY_BACKOFF_MS: '100',
    });
    try {
      const key = await token(retrying.url);
      receiver.answers.push(500, 502);
      const answer = await call(`${retrying.url}/mpesa/stkpush/v1/processrequest`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
        body: pushBody({ PartyA: '254700000000', PhoneNumber: '254700000000' }, receiver.url),
      });
      const { CheckoutRequestID } = answer.body as { CheckoutRequestID: string };
      await receiver.waitFor(3);
      await expect.poll(() => retrying.prompts.get(CheckoutRequestID)?.callback).toBe('delivered');
      const times = receiver.received.map((delivery) => delivery.at);
      // 100 ms, then 200 ms.
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(90);
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(190);
      expect(receiver.received).toHaveLength(3);
    } finally {
      await retrying.close();
    }
  });

  it('applies a chosen fault to the next push only', async () => {
    await control('/numbers/0700000000/next', { fault: { drop: true } }, 'PUT');
    await pushTo('254700000000');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await pushTo('254700000000', 11);
    await receiver.waitFor(1);
  });
});

describe('the request log (§10)', () => {
  it('records each request with its answer, and each callback with the receiver’s status and body', async () => {
    await pushTo('254700000000');
    await receiver.waitFor(1);
    await expect
      .poll(async () => (await control('/log?kind=callback', undefined, 'GET')).body.entries.length)
      .toBe(1);
    const log = (await control('/log', undefined, 'GET')).body.entries;
    expect(log[0]).toMatchObject({
      kind: 'callback',
      url: receiver.url,
      attempt: 1,
      status: 200,
      responseBody: JSON.stringify({ ResultCode: 0, ResultDesc: 'Accepted' }),
      error: null,
    });
    expect(log[1]).toMatchObject({
      kind: 'request',
      method: 'POST',
      path: '/mpesa/stkpush/v1/processrequest',
      status: 200,
      authorization: expect.stringMatching(/^Bearer \w{4}…$/),
      requestBody: expect.objectContaining({ PhoneNumber: '254700000000' }),
      responseBody: expect.objectContaining({ ResponseCode: '0' }),
    });
  });

  it('records a callback that could not be delivered, with the network error', async () => {
    await receiver.close();
    await pushTo('254700000000');
    await expect
      .poll(
        async () => (await control('/log?kind=callback', undefined, 'GET')).body.entries[0]?.error,
      )
      .toBe('ECONNREFUSED');
    receiver = await startReceiver();
  });

  it('masks a password in the callback URL in the delivery error too, as in the URL', async () => {
    const withPassword = receiver.url.replace('http://', 'http://user:P4ssw0rdSecretLong@');
    await pushTo('254700000000', 11, withPassword);
    await expect
      .poll(
        async () => (await control('/log?kind=callback', undefined, 'GET')).body.entries[0]?.error,
      )
      .toMatch(/includes credentials/);
    const entry = (await control('/log?kind=callback', undefined, 'GET')).body.entries[0];
    expect(JSON.stringify(entry)).not.toContain('P4ssw0rdSecretLong');
  });
});
