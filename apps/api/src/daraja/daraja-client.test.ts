import { describe, expect, it } from 'vitest';
import { createDarajaClient, type DarajaClientOptions } from './daraja-client.ts';
import { DarajaError } from './daraja-error.ts';
import type { HttpSend } from './http-send.ts';
import { stkPassword } from './password.ts';
import { fixture } from '../test/fixtures.ts';
import { freePort } from '../test/ports.ts';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A scripted Daraja: answers each request with the next scripted response for its path. */
function fakeDaraja(script: Record<string, Array<[number, unknown]>>) {
  const calls: Call[] = [];
  const sendFn: HttpSend = async (request) => {
    const { url } = request;
    const path = new URL(url).pathname;
    calls.push({
      url,
      method: request.method,
      headers: Object.fromEntries(new Headers(request.headers).entries()),
      body: request.body ? JSON.parse(request.body) : undefined,
    });
    const next = script[path]?.shift();
    if (!next) throw new Error(`unexpected request to ${path}`);
    return { status: next[0], text: JSON.stringify(next[1]) };
  };
  return {
    calls,
    sendFn,
    count: (path: string) => calls.filter((c) => c.url.includes(path)).length,
  };
}

const OAUTH = '/oauth/v1/generate';
const PUSH = '/mpesa/stkpush/v1/processrequest';
const QUERY = '/mpesa/stkpushquery/v1/query';

/** A client sending through `sendFn`, or node:http's own sender when it is undefined. */
function client(sendFn: HttpSend | undefined, overrides: Partial<DarajaClientOptions> = {}) {
  return createDarajaClient({
    baseUrl: 'https://daraja.test',
    consumerKey: 'key',
    consumerSecret: 'secret',
    shortcode: '174379',
    passkey: 'passkey',
    transactionType: 'CustomerPayBillOnline',
    partyB: '174379',
    timeoutMs: 2000,
    ...(sendFn ? { send: sendFn } : {}),
    ...overrides,
  });
}

const pushRequest = {
  phoneNumber: '254708374149',
  amount: 10,
  accountReference: 'INV-1',
  transactionDesc: 'Fees',
  callbackUrl: 'https://pay.example.com/api/mpesa/callback/s3cret',
};

const token = (value: string, expiresIn: string | number = '3599') =>
  [200, { access_token: value, expires_in: expiresIn }] as [number, unknown];
const ack = (): [number, unknown] => [200, fixture('stkpush-ack.json')];

describe('the Daraja client', () => {
  it('sends an STK push Daraja accepts: Basic auth for the token, Bearer for the push, EAT timestamp and matching password', async () => {
    const daraja = fakeDaraja({ [OAUTH]: [token('T1')], [PUSH]: [ack()] });
    const now = new Date('2026-03-01T09:00:00Z');
    const result = await client(daraja.sendFn, { now: () => now }).stkPush(pushRequest);

    expect(result).toEqual({
      merchantRequestId: '2654-4b64-97ff-b827b542881d3130',
      checkoutRequestId: 'ws_CO_1007202409152617172396192',
      responseCode: '0',
      responseDescription: 'Success. Request accepted for processing',
      customerMessage: 'Success. Request accepted for processing',
    });
    const [oauth, push] = daraja.calls;
    expect(oauth?.url).toBe('https://daraja.test/oauth/v1/generate?grant_type=client_credentials');
    expect(oauth?.headers.authorization).toBe(
      `Basic ${Buffer.from('key:secret').toString('base64')}`,
    );
    expect(push?.headers.authorization).toBe('Bearer T1');
    expect(push?.body).toEqual({
      BusinessShortCode: '174379',
      Password: stkPassword('174379', 'passkey', '20260301120000'),
      Timestamp: '20260301120000',
      TransactionType: 'CustomerPayBillOnline',
      Amount: 10,
      PartyA: '254708374149',
      PartyB: '174379',
      PhoneNumber: '254708374149',
      CallBackURL: 'https://pay.example.com/api/mpesa/callback/s3cret',
      AccountReference: 'INV-1',
      TransactionDesc: 'Fees',
    });
  });

  it('keeps the token until shortly before it expires, whether expires_in is text or a number', async () => {
    let now = Date.parse('2026-03-01T09:00:00Z');
    const daraja = fakeDaraja({
      [OAUTH]: [token('T1', 3599), token('T2', '3599')],
      [PUSH]: [ack(), ack(), ack()],
    });
    const c = client(daraja.sendFn, { now: () => new Date(now) });
    await c.stkPush(pushRequest);
    now += 50 * 60_000;
    await c.stkPush(pushRequest);
    expect(daraja.count(OAUTH)).toBe(1);
    now += 10 * 60_000;
    await c.stkPush(pushRequest);
    expect(daraja.count(OAUTH)).toBe(2);
    expect(daraja.calls.at(-1)?.headers.authorization).toBe('Bearer T2');
  });

  it('asks for one token however many pushes are waiting for it', async () => {
    const daraja = fakeDaraja({ [OAUTH]: [token('T1')], [PUSH]: [ack(), ack(), ack()] });
    const c = client(daraja.sendFn);
    await Promise.all([c.stkPush(pushRequest), c.stkPush(pushRequest), c.stkPush(pushRequest)]);
    expect(daraja.count(OAUTH)).toBe(1);
  });

  it('replaces a token Daraja stops accepting and tries the call once more', async () => {
    const daraja = fakeDaraja({
      [OAUTH]: [token('OLD'), token('NEW')],
      [PUSH]: [[404, fixture('stkpush-error-invalid-token.json')], ack()],
    });
    await expect(client(daraja.sendFn).stkPush(pushRequest)).resolves.toMatchObject({
      responseCode: '0',
    });
    expect(
      daraja.calls.filter((c) => c.url.includes(PUSH)).map((c) => c.headers.authorization),
    ).toEqual(['Bearer OLD', 'Bearer NEW']);
  });

  it('gives up after the second refusal of a fresh token', async () => {
    const invalid: [number, unknown] = [404, fixture('stkpush-error-invalid-token.json')];
    const daraja = fakeDaraja({ [OAUTH]: [token('A'), token('B')], [PUSH]: [invalid, invalid] });
    await expect(client(daraja.sendFn).stkPush(pushRequest)).rejects.toMatchObject({
      kind: 'rejected',
      errorCode: '404.001.03',
    });
  });

  it.each([
    ['stkpush-error-wrong-credentials.json', 500, '500.001.1001', 'Wrong credentials'],
    ['stkpush-error-invalid-phone.json', 400, '400.002.02', 'Bad Request - Invalid PhoneNumber'],
  ])('reports the refusal %s with its code and message', async (name, status, code, message) => {
    const daraja = fakeDaraja({ [OAUTH]: [token('T')], [PUSH]: [[status, fixture(name)]] });
    const error = await client(daraja.sendFn)
      .stkPush(pushRequest)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DarajaError);
    expect(error).toMatchObject({
      kind: 'rejected',
      httpStatus: status,
      errorCode: code,
      errorMessage: message,
    });
  });

  it('says a push that timed out has an unknown outcome', async () => {
    const hanging: HttpSend = (request) =>
      request.url.includes(OAUTH)
        ? Promise.resolve({
            status: 200,
            text: JSON.stringify({ access_token: 'T', expires_in: '3599' }),
          })
        : new Promise((_resolve, reject) => {
            request.signal.addEventListener('abort', () => reject(request.signal.reason));
          });
    await expect(client(hanging, { timeoutMs: 100 }).stkPush(pushRequest)).rejects.toMatchObject({
      kind: 'unknown',
    });
  });

  it('says a push to an address nobody listens on was never sent', async () => {
    const port = await freePort();
    await expect(
      client(undefined, { baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 2000 }).stkPush(
        pushRequest,
      ),
    ).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('says a gateway page instead of an acknowledgement is an unknown outcome, not a refusal', async () => {
    const daraja = fakeDaraja({
      [OAUTH]: [token('T')],
      [PUSH]: [[502, '<html>Bad gateway</html>']],
    });
    await expect(client(daraja.sendFn).stkPush(pushRequest)).rejects.toMatchObject({
      kind: 'unknown',
    });
  });

  it('reads an STK query still being processed, and a final answer with a text ResultCode', async () => {
    const daraja = fakeDaraja({
      [OAUTH]: [token('T')],
      [QUERY]: [
        [500, fixture('query-pending.json')],
        [200, fixture('query-final-timeout.json')],
      ],
    });
    const c = client(daraja.sendFn);
    await expect(c.stkQuery('ws_CO_1')).resolves.toEqual({
      state: 'pending',
      message: 'The transaction is being processed',
    });
    await expect(c.stkQuery('ws_CO_1')).resolves.toMatchObject({
      state: 'final',
      resultCode: '1037',
      resultDesc: 'DS timeout user cannot be reached',
    });
    expect(daraja.calls.at(-1)?.body).toMatchObject({
      CheckoutRequestID: 'ws_CO_1',
      BusinessShortCode: '174379',
    });
  });
});

describe('a Daraja API of a feature’s own', () => {
  const BALANCE = '/mpesa/accountbalance/v1/query';

  it('is asked through the same transport, with the token, as the shortcode’s initiator', async () => {
    const daraja = fakeDaraja({
      [OAUTH]: [token('T1')],
      [BALANCE]: [[200, { ResponseCode: '0' }]],
    });
    const money = client(daraja.sendFn, {
      initiator: { name: 'testapi', securityCredential: 'CREDENTIAL' },
    });
    const initiator = money.asInitiator('600000');
    const answer = await money.transport.postJson(BALANCE, {
      Initiator: initiator.initiatorName,
      SecurityCredential: initiator.securityCredential,
      PartyA: initiator.shortcode,
    });
    expect(answer).toEqual({ status: 200, body: { ResponseCode: '0' } });
    const [, call] = daraja.calls;
    expect(call?.headers.authorization).toBe('Bearer T1');
    expect(call?.body).toEqual({
      Initiator: 'testapi',
      SecurityCredential: 'CREDENTIAL',
      PartyA: '600000',
    });
  });

  it('has no initiator to ask as when none is set up', () => {
    expect(() => client(fakeDaraja({}).sendFn).asInitiator('600000')).toThrow(
      'No initiator is set up (MPESA_INITIATOR_NAME)',
    );
  });
});
