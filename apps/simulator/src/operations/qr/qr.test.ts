/**
 * Dynamic QR as a client sees it (docs/daraja-protocol.md §M8.2): the PNG, each refusal in
 * Daraja's envelope, the token, the setting for ResponseCode and the fault rules that name it.
 */
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSimulator, token, type Harness } from '../../test/harness.ts';

const REQUEST_ID = /^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\d{4,8}$/;
const REQUEST = {
  MerchantName: 'TEST SUPERMARKET',
  RefNo: 'Invoice Test',
  Amount: 1,
  TrxCode: 'BG',
  CPI: '373132',
  Size: '300',
};

let sim: Harness;
let bearer: string;
beforeAll(async () => {
  sim = await startSimulator();
  bearer = await token(sim.url);
});
afterAll(() => sim.close());

const generate = (body: unknown, on = sim, headers = { Authorization: `Bearer ${bearer}` }) =>
  call(`${on.url}/mpesa/qrcode/v1/generate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });

/** The PNG of an answer: its signature and size as its header says, and the text of its code. */
function png(base64: string) {
  const bytes = Buffer.from(base64, 'base64');
  const image = PNG.sync.read(bytes);
  // jsqr is CommonJS whose types say `export default`: Node hands its exports object as the default.
  const code = jsQR.default(new Uint8ClampedArray(image.data), image.width, image.height);
  return {
    signature: bytes.subarray(0, 8).toString('hex'),
    // IHDR, the first chunk: width and height, big-endian, after its length and type.
    header: [
      bytes.subarray(12, 16).toString('latin1'),
      bytes.readUInt32BE(16),
      bytes.readUInt32BE(20),
    ],
    text: code?.data,
  };
}

describe('POST /mpesa/qrcode/v1/generate', () => {
  it('answers at once with a PNG of a QR code, Size pixels square, that reads back the request', async () => {
    const answer = await generate(REQUEST);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual([
      'ResponseCode',
      'RequestID',
      'ResponseDescription',
      'QRCode',
    ]);
    expect(answer.body).toMatchObject({
      ResponseCode: '00',
      RequestID: expect.stringMatching(REQUEST_ID),
      ResponseDescription: 'QR Code Successfully Generated.',
    });
    const image = png(answer.body.QRCode);
    expect(image.signature).toBe('89504e470d0a1a0a');
    expect(image.header).toEqual(['IHDR', 300, 300]);
    expect(JSON.parse(image.text!)).toEqual({
      simulator: 'daraja-simulator',
      TrxCode: 'BG',
      CPI: '373132',
      Amount: 1,
      RefNo: 'Invoice Test',
      MerchantName: 'TEST SUPERMARKET',
    });
  });

  it.each([
    [
      'a number as Size, and a send-money code to a phone',
      { Size: 123, TrxCode: 'SM', CPI: '254708374149' },
      123,
    ],
    ['a paybill, Amount as text', { TrxCode: 'PB', CPI: 600000, Amount: '250000' }, 300],
    ['the largest Size', { Size: '1000', TrxCode: 'SB', CPI: '254112345678' }, 1000],
  ])('takes %s', async (_case, fields, size) => {
    const answer = await generate({ ...REQUEST, ...fields });
    expect(answer.status).toBe(200);
    const image = png(answer.body.QRCode);
    expect(image.header).toEqual(['IHDR', size, size]);
    expect(JSON.parse(image.text!)).toMatchObject({
      TrxCode: fields.TrxCode,
      CPI: String(fields.CPI),
    });
  });

  it('gives an M-PESA ConversationID as ResponseCode with SIM_QR_RESPONSE_CODE=conversation-id', async () => {
    const docs = await startSimulator({ SIM_QR_RESPONSE_CODE: 'conversation-id' });
    try {
      const answer = await generate(REQUEST, docs, {
        Authorization: `Bearer ${await token(docs.url)}`,
      });
      expect(answer.body.ResponseCode).toMatch(/^AG_20\d{6}_[0-9a-f]{20}$/);
    } finally {
      await docs.close();
    }
  });

  it('counts a text’s length by characters once trimmed: spaces around and emoji are no extra', async () => {
    for (const MerchantName of [`  ${'M'.repeat(100)}  `, '\u{1F6D2}'.repeat(100)]) {
      const answer = await generate({ ...REQUEST, MerchantName, Size: '1000' });
      expect(answer.status, MerchantName).toBe(200);
      expect(png(answer.body.QRCode).text).toContain(MerchantName.trim());
    }
    const longer = await generate({ ...REQUEST, MerchantName: '\u{1F6D2}'.repeat(101) });
    expect(longer.body.errorMessage).toBe('Bad Request - Invalid MerchantName');
  });

  it.each([
    ['MerchantName', { MerchantName: undefined }],
    ['MerchantName', { MerchantName: '  ' }],
    ['MerchantName', { MerchantName: 'M'.repeat(101) }],
    ['RefNo', { RefNo: 42 }],
    ['Amount', { Amount: 0 }],
    ['Amount', { Amount: 1.5 }],
    ['Amount', { Amount: 250_001 }],
    ['TrxCode', { TrxCode: 'XX' }],
    ['TrxCode', { TrxCode: 'bg' }],
    ['TrxCode', { TrxCode: undefined }],
    ['CPI', { CPI: '0712345678' }],
    ['CPI', { TrxCode: 'SM', CPI: '373132' }],
    ['CPI', { CPI: '37-31-32' }],
    ['Size', { Size: '0' }],
    ['Size', { Size: '1001' }],
    ['Size', { Size: 'large' }],
    ['Size', { Size: undefined }],
    // Too small to draw the code with a pixel for each module and its quiet zone.
    ['Size', { Size: '40' }],
  ])('refuses a bad %s: %j', async (field, fields) => {
    const answer = await generate({ ...REQUEST, ...fields });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      requestId: expect.stringMatching(REQUEST_ID),
      errorCode: '400.002.02',
      errorMessage: `Bad Request - Invalid ${field}`,
    });
  });

  it('asks for a token, POST and a JSON body, as every M-PESA API call does', async () => {
    const noToken = await generate(REQUEST, sim, { Authorization: 'Bearer NotIssued' });
    expect(noToken.status).toBe(404);
    expect(noToken.body).toMatchObject({
      errorCode: '404.001.03',
      errorMessage: 'Invalid Access Token',
    });
    const got = await call(`${sim.url}/mpesa/qrcode/v1/generate`, {
      headers: { Authorization: `Bearer ${bearer}` },
    });
    expect(got.status).toBe(405);
    const notJson = await call(`${sim.url}/mpesa/qrcode/v1/generate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
      raw: '{"MerchantName":',
    });
    expect(notJson.body).toMatchObject({ errorCode: '400.002.05' });
  });

  it('is named qrcode by the fault rules, which refuse it and not STK push', async () => {
    const rules = [{ operation: 'qrcode', probability: 1, error: 'quota' }];
    const set = await call(`${sim.url}/_sim/faults`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: { rules },
    });
    expect(set.status).toBe(200);
    try {
      const refused = await generate(REQUEST);
      expect(refused.status).toBe(500);
      expect(refused.body).toMatchObject({
        errorCode: '500.003.03',
        errorMessage: 'Quota Violation',
      });
      const info = await call(`${sim.url}/_sim/faults`);
      expect(info.body.rules).toEqual(rules);
    } finally {
      await call(`${sim.url}/_sim/faults`, { method: 'DELETE' });
    }
    expect((await generate(REQUEST)).status).toBe(200);
  });
});
