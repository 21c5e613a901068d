/**
 * The simulator against docs/daraja-protocol.md, over real HTTP: every synchronous behaviour of
 * §2, §3.5 and §5,
 * the callback shapes of §4, and the simulator checklist of §10.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  credentialsAt,
  pushBody,
  queryBody,
  startSimulator,
  token,
  type Harness,
} from './test/harness.ts';

const REQUEST_ID = /^([0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\d{4,8}|ws_CO_\d+)$/;

let sim: Harness;
let bearer: string;
const push = (
  body: unknown,
  headers: Record<string, string> = { Authorization: `Bearer ${bearer}` },
) =>
  call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
const query = (body: unknown) =>
  call(`${sim.url}/mpesa/stkpushquery/v1/query`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
    body,
  });

function expectDarajaError(
  answer: { status: number; body: unknown },
  status: number,
  errorCode: string,
  errorMessage: string,
) {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({
    requestId: expect.stringMatching(REQUEST_ID),
    errorCode,
    errorMessage,
  });
}

beforeAll(async () => {
  sim = await startSimulator();
  bearer = await token(sim.url);
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.prompts.reset();
});

describe('OAuth (§2)', () => {
  it('issues a 28-character token with expires_in "3599" as text', async () => {
    const basic = Buffer.from('any-key:any-secret').toString('base64');
    const answer = await call(`${sim.url}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { Authorization: `Basic ${basic}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9]{28}$/),
      expires_in: '3599',
    });
  });

  it('refuses a wrong grant type with 400.008.02', async () => {
    const answer = await call(`${sim.url}/oauth/v1/generate?grant_type=password`, {
      headers: { Authorization: `Basic ${Buffer.from('k:s').toString('base64')}` },
    });
    expectDarajaError(answer, 400, '400.008.02', 'Invalid grant type passed');
  });

  it.each([
    ['no Authorization header', undefined],
    ['a non-Basic scheme', 'Baerer abc'],
    ['Basic without a secret', `Basic ${Buffer.from('key-only').toString('base64')}`],
    ['Basic with an empty key', `Basic ${Buffer.from(':secret').toString('base64')}`],
  ])('refuses %s with 400.008.01', async (_case, header) => {
    const answer = await call(`${sim.url}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: header ? { Authorization: header } : {},
    });
    expectDarajaError(answer, 400, '400.008.01', 'Invalid Authentication passed');
  });

  it('answers a POST with 405', async () => {
    const answer = await call(`${sim.url}/oauth/v1/generate?grant_type=client_credentials`, {
      method: 'POST',
    });
    expectDarajaError(answer, 405, '405.001', 'POST Method Not Allowed');
  });

  it('accepts only the pinned pair when SIM_CONSUMER_KEY and SIM_CONSUMER_SECRET are set', async () => {
    const pinned = await startSimulator({ SIM_CONSUMER_KEY: 'right', SIM_CONSUMER_SECRET: 'pair' });
    try {
      expect(await token(pinned.url, 'right', 'pair')).toMatch(/^[A-Za-z0-9]{28}$/);
      const basic = Buffer.from('right:wrong').toString('base64');
      const answer = await call(`${pinned.url}/oauth/v1/generate?grant_type=client_credentials`, {
        headers: { Authorization: `Basic ${basic}` },
      });
      expectDarajaError(answer, 400, '400.008.01', 'Invalid Authentication passed');
    } finally {
      await pinned.close();
    }
  });
});

describe('STK push (§3)', () => {
  it('acknowledges with a text ResponseCode "0" and realistic ids', async () => {
    const answer = await push(pushBody());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      MerchantRequestID: expect.stringMatching(
        /^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\d{4,8}$/,
      ),
      CheckoutRequestID: expect.stringMatching(/^ws_CO_\d{17}708374149$/),
      ResponseCode: '0',
      ResponseDescription: 'Success. Request accepted for processing',
      CustomerMessage: 'Success. Request accepted for processing',
    });
  });

  it('accepts numbers or text in the numeric fields', async () => {
    const answer = await push(
      pushBody({
        BusinessShortCode: 174379,
        Amount: '1',
        PartyA: 254708374149,
        PartyB: 174379,
        PhoneNumber: 254708374149,
      }),
    );
    expect(answer.status).toBe(200);
  });

  it.each([
    ['missing', {}],
    ['wrong', { Authorization: 'Bearer notatoken' }],
  ])('refuses a %s token with 404.001.03', async (_case, headers) => {
    expectDarajaError(await push(pushBody(), headers), 404, '404.001.03', 'Invalid Access Token');
  });

  it('refuses an expired token with 404.001.03', async () => {
    const shortLived = await startSimulator({ SIM_TOKEN_TTL_S: '1' });
    try {
      const oauth = await call(
        `${shortLived.url}/oauth/v1/generate?grant_type=client_credentials`,
        {
          headers: { Authorization: `Basic ${Buffer.from('k:s').toString('base64')}` },
        },
      );
      expect(oauth.body.expires_in).toBe('1');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const answer = await call(`${shortLived.url}/mpesa/stkpush/v1/processrequest`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${oauth.body.access_token}`,
        },
        body: pushBody(),
      });
      expectDarajaError(answer, 404, '404.001.03', 'Invalid Access Token');
    } finally {
      await shortLived.close();
    }
  });

  it('refuses a malformed Authorization header with 404.001.04', async () => {
    expectDarajaError(
      await push(pushBody(), { Authorization: 'Basic abc' }),
      404,
      '404.001.04',
      'Invalid Authentication Header',
    );
  });

  it('answers a GET with 405', async () => {
    const answer = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
      headers: { Authorization: `Bearer ${bearer}` },
    });
    expectDarajaError(answer, 405, '405.001', 'GET Method Not Allowed');
  });

  it('refuses malformed JSON with 400.002.05', async () => {
    const answer = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
      raw: '{"BusinessShortCode": 174379,',
    });
    expectDarajaError(answer, 400, '400.002.05', 'Invalid Request Payload');
  });

  it.each([
    ['BusinessShortCode', { BusinessShortCode: 'abc' }],
    ['BusinessShortCode', { BusinessShortCode: undefined }],
    ['Password', { Password: '' }],
    ['Timestamp', { Timestamp: '2024-01-01 10:00' }],
    ['Timestamp', { Timestamp: '20240231120000' }],
    ['TransactionType', { TransactionType: 'CustomerPayBill' }],
    ['Amount', { Amount: 0 }],
    ['Amount', { Amount: 250_001 }],
    ['Amount', { Amount: 'ten' }],
    ['Amount', { Amount: undefined }],
    ['PartyA', { PartyA: '0708374149' }],
    ['PartyB', { PartyB: 'x' }],
    ['PhoneNumber', { PhoneNumber: '243812345678' }],
    ['PhoneNumber', { PhoneNumber: undefined }],
    ['CallBackURL', { CallBackURL: 'not a url' }],
    ['CallBackURL', { CallBackURL: ' https://example.com/cb' }],
    ['AccountReference', { AccountReference: '' }],
    ['Remarks', { TransactionDesc: null }],
  ])(
    'refuses an invalid or missing field with "Bad Request - Invalid %s"',
    async (field, overrides) => {
      const answer = await push(pushBody(overrides));
      expectDarajaError(answer, 400, '400.002.02', `Bad Request - Invalid ${field}`);
    },
  );

  it('checks PhoneNumber before PartyA: a non-Kenyan number in both is "Invalid PhoneNumber", as Daraja answers', async () => {
    const answer = await push(pushBody({ PartyA: '243812345678', PhoneNumber: '243812345678' }));
    expectDarajaError(answer, 400, '400.002.02', 'Bad Request - Invalid PhoneNumber');
  });

  it('accepts the amount limits themselves', async () => {
    expect((await push(pushBody({ Amount: 250_000 }))).status).toBe(200);
    expect(
      (await push(pushBody({ Amount: 1, PhoneNumber: '254711111111', PartyA: '254711111111' })))
        .status,
    ).toBe(200);
  });

  it('refuses a wrong password with 500.001.1001 "Wrong credentials"', async () => {
    expectDarajaError(
      await push(pushBody({ Password: 'd3Jvbmc=' })),
      500,
      '500.001.1001',
      'Wrong credentials',
    );
  });

  it('refuses an unknown shortcode with "Merchant does not exist"', async () => {
    expectDarajaError(
      await push(pushBody({ BusinessShortCode: '600000' })),
      500,
      '500.001.1001',
      'Merchant does not exist',
    );
  });

  it('refuses a second push while a prompt is open on the phone', async () => {
    expect((await push(pushBody())).status).toBe(200);
    expectDarajaError(
      await push(pushBody({ Amount: 2 })),
      500,
      '500.001.1001',
      'Unable to lock subscriber, a transaction is already in process for the current subscriber',
    );
  });

  it('refuses 0700000503 at once with 500.003.02', async () => {
    const answer = await push(pushBody({ PhoneNumber: '254700000503', PartyA: '254700000503' }));
    expectDarajaError(
      answer,
      500,
      '500.003.02',
      'System is busy. Please try again in few minutes.',
    );
    expect(sim.prompts.list()).toEqual([]);
  });

  it('applies Daraja’s documented length limits only when asked to', async () => {
    expect((await push(pushBody({ AccountReference: 'ThirteenChars' }))).status).toBe(200);
    const strict = await startSimulator({ SIM_STRICT_LENGTHS: 'true' });
    try {
      const strictToken = await token(strict.url);
      const answer = await call(`${strict.url}/mpesa/stkpush/v1/processrequest`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${strictToken}` },
        body: pushBody({ AccountReference: 'ThirteenChars' }),
      });
      expectDarajaError(answer, 400, '400.002.02', 'Bad Request - Invalid AccountReference');
    } finally {
      await strict.close();
    }
  });

  // npm mpesa-api 3.0.2 sends 'CustomerPayBillOnline ' by default, and Daraja takes it.
  it('takes a TransactionType with spaces around it, refused only under SIM_STRICT_LENGTHS', async () => {
    const spaced = pushBody({ TransactionType: 'CustomerPayBillOnline ' });
    const answer = await push(spaced);
    expect(answer.body).toMatchObject({ ResponseCode: '0' });
    const prompt = sim.prompts.get(answer.body.CheckoutRequestID as string);
    expect(prompt?.transactionType).toBe('CustomerPayBillOnline');
    const till = pushBody({
      TransactionType: ' CustomerBuyGoodsOnline\t',
      PhoneNumber: '254722000002',
      PartyA: '254722000002',
    });
    expect((await push(till)).status).toBe(200);
    // Spaces only: a different case is another word.
    const shouted = pushBody({ TransactionType: 'CUSTOMERPAYBILLONLINE' });
    expectDarajaError(
      await push(shouted),
      400,
      '400.002.02',
      'Bad Request - Invalid TransactionType',
    );

    const strict = await startSimulator({ SIM_STRICT_LENGTHS: 'true' });
    try {
      const answered = await call(`${strict.url}/mpesa/stkpush/v1/processrequest`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${await token(strict.url)}`,
        },
        body: spaced,
      });
      expectDarajaError(answered, 400, '400.002.02', 'Bad Request - Invalid TransactionType');
    } finally {
      await strict.close();
    }
  });

  it('refuses a Timestamp in UTC instead of Nairobi time when SIM_MAX_TIMESTAMP_SKEW_H asks it to', async () => {
    expect((await push(pushBody())).status).toBe(200);
    const strict = await startSimulator({ SIM_MAX_TIMESTAMP_SKEW_H: '1' });
    try {
      const strictToken = await token(strict.url);
      const send = (at: Date) =>
        call(`${strict.url}/mpesa/stkpush/v1/processrequest`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${strictToken}` },
          body: pushBody({
            ...credentialsAt(at),
            PhoneNumber: '254722000001',
            PartyA: '254722000001',
          }),
        });
      const utcFormatted = new Date(Date.now() - 3 * 3600_000); // what a server sending UTC produces
      expectDarajaError(
        await send(utcFormatted),
        400,
        '400.002.02',
        'Bad Request - Invalid Timestamp',
      );
      expect((await send(new Date())).status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('answers unknown paths with 404.001.01', async () => {
    const answer = await call(`${sim.url}/mpesa/nothing/v1/here`, { method: 'POST' });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({
      errorCode: '404.001.01',
      errorMessage: 'Resource not found',
    });
  });
});

describe('STK query (§5)', () => {
  it('says "being processed" while the payer has not answered, then gives the result as text', async () => {
    const { body } = await push(pushBody());
    const pending = await query(queryBody(body.CheckoutRequestID));
    expect(pending.status).toBe(500);
    expect(pending.body).toEqual({
      requestId: body.CheckoutRequestID,
      errorCode: '500.001.1001',
      errorMessage: 'The transaction is being processed',
    });

    await call(`${sim.url}/_sim/prompts/${body.CheckoutRequestID}/cancel`, { method: 'POST' });
    const final = await query(queryBody(body.CheckoutRequestID));
    expect(final.status).toBe(200);
    expect(final.body).toEqual({
      ResponseCode: '0',
      ResponseDescription: 'The service request has been accepted successsfully',
      MerchantRequestID: body.MerchantRequestID,
      CheckoutRequestID: body.CheckoutRequestID,
      ResultCode: '1032',
      ResultDesc: 'Request Cancelled by user.',
    });
  });

  it('refuses an unknown CheckoutRequestID', async () => {
    expectDarajaError(
      await query(queryBody('ws_CO_000')),
      400,
      '400.002.02',
      'Bad Request - Invalid CheckoutRequestID',
    );
  });

  it('checks the token, the password and the fields like the push', async () => {
    const { body } = await push(pushBody());
    expectDarajaError(
      await query({ ...queryBody(body.CheckoutRequestID), Password: 'eA==' }),
      500,
      '500.001.1001',
      'Wrong credentials',
    );
    expectDarajaError(
      await query({ ...queryBody(body.CheckoutRequestID), Timestamp: 'now' }),
      400,
      '400.002.02',
      'Bad Request - Invalid Timestamp',
    );
    const noToken = await call(`${sim.url}/mpesa/stkpushquery/v1/query`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: queryBody(body.CheckoutRequestID),
    });
    expectDarajaError(noToken, 404, '404.001.03', 'Invalid Access Token');
  });
});
