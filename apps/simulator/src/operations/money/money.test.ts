/**
 * The ledger through the simulator (docs/daraja-protocol.md §M12): GET /_sim/ledger, balances set
 * through the control API (and refused as its description says), a reset, and an STK payment that
 * moves the money from the payer's wallet to the shortcode, or ends with 1 when the wallet cannot
 * pay.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exampleValues, record as obj } from '@mpesa/openapi-page';
import {
  call,
  pushBody,
  startReceiver,
  startSimulator,
  token,
  type Harness,
  type Receiver,
} from '../../test/harness.ts';

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
  await control('POST', '/reset');
  receiver = await startReceiver();
  return () => receiver.close();
});

async function control(method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) {
  const answer = await sim.app.inject({ method, url: `/_sim${url}`, payload });
  return { status: answer.statusCode, body: answer.body === '' ? undefined : answer.json() };
}

const ledger = async () => (await control('GET', '/ledger')).body;

/** A push answered with the PIN; the callback it gets. */
async function payByStk(overrides: Record<string, unknown> = {}) {
  const phone = '254708374149';
  const pushed = await call(`${sim.url}/mpesa/stkpush/v1/processrequest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
    body: pushBody(
      { PartyA: phone, PhoneNumber: phone, AccountReference: 'INV-7', ...overrides },
      receiver.url,
    ),
  });
  expect(pushed.status).toBe(200);
  await control('POST', `/prompts/${pushed.body.CheckoutRequestID}/pin`, { pin: '1234' });
  await receiver.waitFor(1);
  return receiver.received[0]!.body.Body.stkCallback;
}

const item = (
  callback: { CallbackMetadata?: { Item: { Name: string; Value?: unknown }[] } },
  name: string,
) => callback.CallbackMetadata?.Item.find((entry) => entry.Name === name)?.Value;

const HOME_BALANCE =
  'Working Account|KES|500000.00|500000.00|0.00|0.00&Float Account|KES|0.00|0.00|0.00|0.00&' +
  'Utility Account|KES|1000000.00|1000000.00|0.00|0.00&Charges Paid Account|KES|0.00|0.00|0.00|0.00&' +
  'Organization Settlement Account|KES|0.00|0.00|0.00|0.00';

describe('GET /_sim/ledger', () => {
  it('shows the simulator’s own paybill from the start, and nothing else', async () => {
    expect(await ledger()).toEqual({
      shortcodes: [
        {
          shortcode: '174379',
          kind: 'paybill',
          name: 'Sandbox Test Merchant',
          accounts: {
            'Working Account': '500000.00',
            'Float Account': '0.00',
            'Utility Account': '1000000.00',
            'Charges Paid Account': '0.00',
            'Organization Settlement Account': '0.00',
          },
          accountBalance: HOME_BALANCE,
        },
      ],
      wallets: [],
      transactions: [],
    });
  });
});

describe('an STK payment', () => {
  it('moves the amount from the payer’s wallet to the shortcode’s utility account, under its receipt', async () => {
    const callback = await payByStk({ Amount: 450 });
    expect(callback.ResultCode).toBe(0);
    const receipt = item(callback, 'MpesaReceiptNumber');
    const { shortcodes, wallets, transactions } = await ledger();
    expect(shortcodes[0].accounts['Utility Account']).toBe('1000450.00');
    expect(wallets).toEqual([
      {
        msisdn: '254708374149',
        name: 'John Doe',
        registered: true,
        balance: '249550.00',
        today: {
          date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          received: '0.00',
          paid: '450.00',
        },
      },
    ]);
    expect(transactions).toEqual([
      expect.objectContaining({
        receipt,
        kind: 'stk',
        status: 'Completed',
        amount: '450.00',
        charges: '0.00',
        debit: { msisdn: '254708374149' },
        credit: { shortcode: '174379', account: 'Utility Account' },
        reference: 'INV-7',
      }),
    ]);
    expect(sim.ledger.byReceipt(String(receipt))?.kind).toBe('stk');
  });

  it('pays a Buy Goods push into the till’s merchant account', async () => {
    const callback = await payByStk({
      TransactionType: 'CustomerBuyGoodsOnline',
      PartyB: '5550555',
      Amount: 30,
    });
    expect(callback.ResultCode).toBe(0);
    const till = (await ledger()).shortcodes.find(
      (book: { shortcode: string }) => book.shortcode === '5550555',
    );
    expect(till).toMatchObject({ kind: 'till', accounts: { 'Merchant Account': '30.00' } });
  });

  it('ends with 1 when the wallet cannot pay: no receipt, and nothing moves', async () => {
    expect((await control('PUT', '/ledger/wallets/0708374149', { balance: 100 })).status).toBe(200);
    const callback = await payByStk({ Amount: 450 });
    expect(callback).toMatchObject({
      ResultCode: 1,
      ResultDesc: 'The balance is insufficient for the transaction.',
    });
    expect(callback.CallbackMetadata).toBeUndefined();
    const { shortcodes, wallets, transactions } = await ledger();
    expect(wallets[0].balance).toBe('100.00');
    expect(shortcodes[0].accountBalance).toBe(HOME_BALANCE);
    expect(transactions).toEqual([]);
  });
});

describe('setting balances', () => {
  it('sets a shortcode’s accounts by Daraja’s names, in shillings', async () => {
    const set = await control('PUT', '/ledger/shortcodes/600992', {
      name: 'Safaricom Daraja 992',
      balances: { 'Utility Account': '2500.50', 'Charges Paid Account': -15 },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      shortcode: '600992',
      kind: 'paybill',
      accounts: {
        'Working Account': '500000.00',
        'Utility Account': '2500.50',
        'Charges Paid Account': '-15.00',
      },
    });
    expect(set.body.accountBalance).toContain(
      'Utility Account|KES|2500.50|2500.50|0.00|0.00&Charges Paid Account|KES|-15.00',
    );
    const till = await control('PUT', '/ledger/shortcodes/123456', {
      kind: 'till',
      balances: { 'Merchant Account': 99 },
    });
    expect(till.body.accountBalance).toBe(
      'Merchant Account|KES|99.00|99.00|0.00|0.00&Charges Paid Account|KES|0.00|0.00|0.00|0.00',
    );
    expect(
      (await ledger()).shortcodes.map((book: { shortcode: string }) => book.shortcode),
    ).toEqual(['174379', '600992', '123456']);
  });

  it('sets a wallet’s balance, name and registration, its number written any Kenyan way', async () => {
    const set = await control('PUT', '/ledger/wallets/+254 712 345 678', {
      balance: '1000.00',
      name: 'Achieng Otieno',
      registered: false,
    });
    expect(set).toMatchObject({
      status: 200,
      body: {
        msisdn: '254712345678',
        name: 'Achieng Otieno',
        registered: false,
        balance: '1000.00',
      },
    });
  });

  it('refuses bad input with a 400 that says what is wrong', async () => {
    const refused = async (url: string, payload: object) => {
      const answer = await control('PUT', url, payload);
      expect(answer.status, url).toBe(400);
      return answer.body.error as string;
    };
    expect(await refused('/ledger/shortcodes/12', {})).toBe(
      'params/shortcode must be 5 to 7 digits',
    );
    expect(
      await refused('/ledger/shortcodes/600992', {
        kind: 'till',
        balances: { 'Utility Account': 1 },
      }),
    ).toBe(
      'A till has no Utility Account: its accounts are Merchant Account, Charges Paid Account',
    );
    expect(
      await refused('/ledger/shortcodes/600992', { balances: { 'Utility Account': 10.005 } }),
    ).toBe(
      'body/balances/Utility Account must be shillings with at most two decimals, like 1500 or "1500.00"',
    );
    expect(
      await refused('/ledger/shortcodes/600992', { balances: { 'Working Account': -1 } }),
    ).toBe('Working Account cannot be set below 0.00: only the Charges Paid Account can');
    expect(await refused('/ledger/shortcodes/600992', { balance: 1 })).toMatch(
      /^body Unrecognized key/,
    );
    expect(await refused('/ledger/wallets/12345', { balance: 1 })).toBe(
      'params/msisdn phone must be a Kenyan mobile number',
    );
    expect(await refused('/ledger/wallets/0708374149', { balance: 500_000.01 })).toBe(
      "body/balance must be from 0.00 to 500000.00, M-PESA's maximum balance",
    );
    expect(await refused('/ledger/wallets/0708374149', { balance: 'lots' })).toMatch(
      /^body\/balance must be shillings/,
    );
    expect(await refused('/ledger/wallets/0708374149', { registered: 'yes' })).toMatch(
      /^body\/registered /,
    );
    // Nothing refused was kept.
    expect((await ledger()).wallets).toEqual([]);
    expect((await ledger()).shortcodes).toHaveLength(1);
  });

  it('refuses as the description documents', async () => {
    const document = (await sim.app.inject('/_sim/openapi.json')).json();
    const cases = [
      ['get', '/_sim/ledger', { url: '/_sim/ledger?limit=1001' }],
      [
        'put',
        '/_sim/ledger/shortcodes/{shortcode}',
        { method: 'PUT', url: '/_sim/ledger/shortcodes/12', payload: {} },
      ],
      [
        'put',
        '/_sim/ledger/shortcodes/{shortcode}',
        {
          method: 'PUT',
          url: '/_sim/ledger/shortcodes/600992',
          payload: { kind: 'till', balances: { 'Utility Account': 1 } },
        },
      ],
      [
        'put',
        '/_sim/ledger/shortcodes/{shortcode}',
        {
          method: 'PUT',
          url: '/_sim/ledger/shortcodes/600992',
          payload: { balances: { 'Utility Account': '1.005' } },
        },
      ],
      [
        'put',
        '/_sim/ledger/wallets/{msisdn}',
        { method: 'PUT', url: '/_sim/ledger/wallets/12', payload: {} },
      ],
      [
        'put',
        '/_sim/ledger/wallets/{msisdn}',
        { method: 'PUT', url: '/_sim/ledger/wallets/0708374149', payload: { balance: 500_001 } },
      ],
    ] as const;
    for (const [method, path, request] of cases) {
      const answer = await sim.app.inject(request);
      const responses = obj(obj(obj(obj(document.paths)[path])[method]).responses);
      expect(exampleValues(obj(responses[answer.statusCode]).content), request.url).toContainEqual(
        answer.json(),
      );
    }
  });
});

describe('GET /_sim/events', () => {
  it('tells each transaction as it is made, as the ledger shows it', async () => {
    const stop = new AbortController();
    const stream = await fetch(`${sim.url}/_sim/events`, { signal: stop.signal });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    sim.ledger.move({
      kind: 'c2b',
      amount: 5_00,
      from: { msisdn: '254705912645' },
      to: { shortcode: '174379', account: 'Utility Account' },
    });
    let text = '';
    while (!text.includes('event: transaction')) text += (await reader.read()).value ?? '';
    stop.abort();
    const data = /event: transaction\ndata: (.*)\n/.exec(text)?.[1] ?? '{}';
    expect(JSON.parse(data)).toMatchObject({
      kind: 'c2b',
      amount: '5.00',
      status: 'Completed',
      // Both parties by name, for the virtual phone's message (public/money-sms.js).
      debitName: 'NICHOLAS JOHN SONGOK',
      creditName: 'Sandbox Test Merchant',
    });
  });

  it('starts with the recent transactions after STK push’s own, for the phone’s messages', async () => {
    await payByStk();
    sim.ledger.move({
      kind: 'b2c',
      amount: 100_00,
      from: { shortcode: '174379', account: 'Utility Account' },
      to: { msisdn: '254708374149' },
    });
    const stop = new AbortController();
    const stream = await fetch(`${sim.url}/_sim/events`, { signal: stop.signal });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!/event: hello\ndata: .*\n/.test(text)) text += (await reader.read()).value ?? '';
    stop.abort();
    const hello = JSON.parse(/event: hello\ndata: (.*)\n/.exec(text)![1]!);
    expect(hello.transactions).toEqual([
      expect.objectContaining({ kind: 'b2c', amount: '100.00', creditName: 'John Doe' }),
    ]);
  });
});

describe('POST /_sim/reset', () => {
  it('forgets every wallet, shortcode and transaction, and the balances set', async () => {
    await payByStk();
    await control('PUT', '/ledger/shortcodes/174379', { balances: { 'Working Account': 1 } });
    expect((await ledger()).transactions).toHaveLength(1);
    expect((await control('POST', '/reset')).status).toBe(204);
    expect(await ledger()).toMatchObject({
      shortcodes: [{ shortcode: '174379', accountBalance: HOME_BALANCE }],
      wallets: [],
      transactions: [],
    });
  });
});
