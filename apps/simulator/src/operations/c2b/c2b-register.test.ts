/**
 * C2B register URL and simulate as a client sees them (docs/daraja-protocol.md §M3.1, §M3.2,
 * §M3.6): the answers with Safaricom's spelling, every refusal in Daraja's envelope, the forbidden
 * words, re-registration in the sandbox's way and in production's, the fault rules' names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { c2bClient, registration, startMerchant, type Merchant } from '../../test/c2b.ts';
import { call, startSimulator, type Harness } from '../../test/harness.ts';

const REQUEST_ID = /^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\d{4,8}$/;

let sim: Harness;
let merchant: Merchant;
let client: ReturnType<typeof c2bClient>;
beforeAll(async () => {
  sim = await startSimulator();
  merchant = await startMerchant();
  client = c2bClient(sim);
});
afterAll(async () => {
  await sim.close();
  await merchant.close();
});

const invalid = (field: string) => ({
  requestId: expect.stringMatching(REQUEST_ID),
  errorCode: '400.002.02',
  errorMessage: `Bad Request - Invalid ${field}`,
});

describe('POST /mpesa/c2b/{v1,v2}/registerurl', () => {
  it.each(['v1', 'v2'])(
    'answers %s with OriginatorCoversationID, spelled as Daraja does',
    async (version) => {
      const answer = await client.register(registration(merchant), version);
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body)).toEqual([
        'OriginatorCoversationID',
        'ResponseCode',
        'ResponseDescription',
      ]);
      expect(answer.body).toEqual({
        OriginatorCoversationID: expect.stringMatching(REQUEST_ID),
        ResponseCode: '0',
        ResponseDescription: 'Success',
      });
    },
  );

  it('takes a numeric ShortCode, HTTP URLs and extra keys, and keeps what was registered last', async () => {
    const urls = {
      ConfirmationURL: 'http://shop.example/c',
      ValidationURL: 'http://shop.example/v',
    };
    expect((await client.register(registration(merchant, { ShortCode: 600985 }))).status).toBe(200);
    const again = await client.register(
      registration(merchant, { ShortCode: '600985', ResponseType: 'Cancelled', Extra: 1, ...urls }),
      'v2',
    );
    expect(again.status).toBe(200);
    const { body } = await client.control('/c2b');
    expect(
      body.shortcodes.find((each: { shortcode: string }) => each.shortcode === '600985'),
    ).toMatchObject({
      registration: {
        version: 'v2',
        responseType: 'Cancelled',
        confirmationUrl: urls.ConfirmationURL,
        validationUrl: urls.ValidationURL,
      },
      externalValidation: false,
    });
  });

  it.each([
    ['ShortCode', { ShortCode: undefined }],
    ['ShortCode', { ShortCode: '12' }],
    ['ShortCode', { shortCode: '600984', ShortCode: undefined }],
    ['ResponseType', { ResponseType: 'completed' }],
    ['ResponseType', { ResponseType: 'Canceled' }],
    ['ResponseType', { ResponseType: 'Confirmed' }],
    ['ResponseType', { ResponseType: undefined }],
    ['ConfirmationURL', { ConfirmationURL: undefined }],
    ['ConfirmationURL', { ConfirmationURL: 'not a url' }],
    ['ValidationURL', { ValidationURL: 'ftp://shop.example/v' }],
    ['ValidationURL', { ValidationURL: undefined }],
  ])('refuses a bad %s: %j', async (field, fields) => {
    const answer = await client.register(registration(merchant, fields));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalid(field));
  });

  it.each([
    ['ValidationURL', 'https://shop.example/mpesa/validation', 'MPESA'],
    ['ValidationURL', 'https://shop.example/M-Pesa/v', 'M-PESA'],
    ['ConfirmationURL', 'https://safaricom-payments.example/c', 'SAFARICOM'],
    ['ConfirmationURL', 'https://shop.example/run.exe', 'EXE'],
    ['ConfirmationURL', 'https://shop.example/exec', 'EXEC'],
    ['ValidationURL', 'https://shop.example/cmd', 'CMD'],
    ['ValidationURL', 'https://shop.example/mySQLite', 'SQL'],
    ['ConfirmationURL', 'https://shop.example/c?Query=1', 'QUERY'],
  ])('refuses %s %s: the word %s, in any case and inside other words', async (field, url, word) => {
    const answer = await client.register(registration(merchant, { [field]: url }));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      requestId: expect.stringMatching(REQUEST_ID),
      errorCode: '400.003.02',
      errorMessage: `Bad Request - Invalid ${field} - URL has the word ${word}`,
    });
  });

  it('names the ValidationURL first when both have a forbidden word', async () => {
    const answer = await client.register(
      registration(merchant, {
        ConfirmationURL: 'https://shop.example/sql',
        ValidationURL: 'https://shop.example/mpesa',
      }),
    );
    expect(answer.body.errorMessage).toBe(
      'Bad Request - Invalid ValidationURL - URL has the word MPESA',
    );
  });

  it('asks for a token, POST and a JSON body', async () => {
    const noToken = await call(`${sim.url}/mpesa/c2b/v2/registerurl`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer NotIssued' },
      body: registration(merchant),
    });
    expect(noToken.status).toBe(404);
    expect(noToken.body).toMatchObject({ errorCode: '404.001.03' });
    expect((await call(`${sim.url}/mpesa/c2b/v1/simulate`)).status).toBe(405);
  });
});

describe('SIM_C2B_PRODUCTION_URLS', () => {
  it('registers once (500.003.1001 after), HTTPS only, until the URLs are deleted', async () => {
    const production = await startSimulator({ SIM_C2B_PRODUCTION_URLS: 'true' });
    try {
      const prod = c2bClient(production);
      const https = {
        ConfirmationURL: 'https://shop.example/c',
        ValidationURL: 'https://shop.example/v',
      };
      const http = await prod.register(registration(merchant));
      expect(http.body).toEqual(invalid('ConfirmationURL'));
      expect((await prod.register(registration(merchant, https))).status).toBe(200);
      const again = await prod.register(registration(merchant, https), 'v2');
      expect(again.status).toBe(500);
      expect(again.body).toEqual({
        requestId: expect.stringMatching(REQUEST_ID),
        errorCode: '500.003.1001',
        errorMessage: 'Urls are already registered.',
      });
      expect((await prod.control('/c2b/shortcodes/600984/urls', 'DELETE')).status).toBe(204);
      expect((await prod.register(registration(merchant, https), 'v2')).status).toBe(200);
      expect((await prod.control('/c2b/shortcodes/600999/urls', 'DELETE')).status).toBe(404);
    } finally {
      await production.close();
    }
  });
});

describe('POST /mpesa/c2b/{v1,v2}/simulate', () => {
  const body = {
    ShortCode: 600984,
    CommandID: 'CustomerPayBillOnline',
    Amount: 1,
    Msisdn: 254708374149,
    BillRefNumber: 'Test Ref',
  };

  it.each(['v1', 'v2'])('answers %s at once, as Daraja does', async (version) => {
    const answer = await client.simulate(body, version);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      OriginatorCoversationID: expect.stringMatching(REQUEST_ID),
      ResponseCode: '0',
      ResponseDescription: 'Accept the service request successfully.',
    });
  });

  it('takes strings for numbers, a till with BillRefNumber null, and a CommandID with spaces', async () => {
    const till = { ...body, CommandID: ' CustomerBuyGoodsOnline ', BillRefNumber: null };
    expect((await client.simulate({ ...till, Amount: '10', Msisdn: '254708374149' })).status).toBe(
      200,
    );
  });

  it.each([
    ['ShortCode', { ShortCode: 'abc' }],
    ['CommandID', { CommandID: 'BusinessPayBill' }],
    ['CommandID', { CommandID: undefined }],
    ['Amount', { Amount: 0 }],
    ['Amount', { Amount: 1.5 }],
    ['Amount', { Amount: 250_001 }],
    ['Msisdn', { Msisdn: '0708374149' }],
    ['Msisdn', { MSISDN: 254708374149, Msisdn: undefined }],
    ['BillRefNumber', { BillRefNumber: 'R'.repeat(21) }],
    ['BillRefNumber', { BillRefNumber: {} }],
  ])('refuses a bad %s: %j', async (field, fields) => {
    const answer = await client.simulate({ ...body, ...fields });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(invalid(field));
  });

  it('refuses a CommandID with spaces under SIM_STRICT_LENGTHS', async () => {
    const strict = await startSimulator({ SIM_STRICT_LENGTHS: 'true' });
    try {
      const answer = await c2bClient(strict).simulate({
        ...body,
        CommandID: 'CustomerPayBillOnline ',
      });
      expect(answer.body).toEqual(invalid('CommandID'));
    } finally {
      await strict.close();
    }
  });

  it('is named c2bsimulate by the fault rules, c2bregister left alone', async () => {
    const rules = [{ operation: 'c2bsimulate', probability: 1, error: 'busy' }];
    expect((await client.control('/faults', 'PUT', { rules })).status).toBe(200);
    try {
      expect((await client.simulate(body)).body).toMatchObject({ errorCode: '500.003.02' });
      expect((await client.register(registration(merchant))).status).toBe(200);
    } finally {
      await client.control('/faults', 'DELETE');
    }
  });
});
