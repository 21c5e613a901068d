/**
 * A C2B payment as the merchant sees it (docs/daraja-protocol.md §M3.3, §M3.4, §M3.6): the
 * confirmation's exact shape and types, the payer's number hashed (v1) or masked (v2), the
 * validation request and each answer to it, ResponseType when none comes in time, the ledger.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { c2bClient, payment, registration, startMerchant, type Merchant } from '../../test/c2b.ts';
import { startSimulator, type Harness } from '../../test/harness.ts';

/** sha256("254705912645"), as in the 2025 capture (§M3.3). */
const HASHED = '94c392c311d522da950619227b3361752a42042db7e1e699b26e628305c68a88';
const RECEIPT = /^[A-Z][A-Z0-9]{9}$/;

let sim: Harness;
let merchant: Merchant;
let client: ReturnType<typeof c2bClient>;
beforeEach(async () => {
  sim = await startSimulator();
  merchant = await startMerchant();
  client = c2bClient(sim);
  return async () => {
    await sim.close();
    await merchant.close();
  };
});

/** Registers 600984 through `version`, with validation on or off. */
async function setUp(version = 'v1', validation = false, fields: Record<string, unknown> = {}) {
  expect((await client.register(registration(merchant, fields), version)).status).toBe(200);
  const set = await client.control('/c2b/shortcodes/600984', 'PUT', {
    externalValidation: validation,
  });
  expect(set.status).toBe(200);
}

const utility = () =>
  sim.ledger.shortcode('600984').accounts['Utility Account'] as number | undefined;

describe('the confirmation', () => {
  it('has the captured shape, every value a string, the MSISDN hashed after a v1 registration', async () => {
    await setUp('v1');
    const before = utility()!;
    expect((await client.simulate(payment())).status).toBe(200);
    await merchant.waitFor(1);
    const [confirmation] = merchant.of('confirmation');
    expect(Object.keys(confirmation)).toEqual([
      'TransactionType',
      'TransID',
      'TransTime',
      'TransAmount',
      'BusinessShortCode',
      'BillRefNumber',
      'InvoiceNumber',
      'OrgAccountBalance',
      'ThirdPartyTransID',
      'MSISDN',
      'FirstName',
      'MiddleName',
      'LastName',
    ]);
    expect(confirmation).toEqual({
      TransactionType: 'Pay Bill',
      TransID: expect.stringMatching(RECEIPT),
      TransTime: expect.stringMatching(/^20\d{12}$/),
      TransAmount: '1.00',
      BusinessShortCode: '600984',
      BillRefNumber: 'Test Ref',
      InvoiceNumber: '',
      OrgAccountBalance: '1000001.00',
      ThirdPartyTransID: '',
      MSISDN: HASHED,
      FirstName: 'NICHOLAS',
      MiddleName: 'JOHN',
      LastName: 'SONGOK',
    });
    expect(merchant.of('validation')).toEqual([]);
    expect(utility()).toBe(before + 100);
    expect(sim.ledger.byReceipt(confirmation.TransID)).toMatchObject({
      kind: 'c2b',
      status: 'Completed',
      amount: 100,
      debit: { msisdn: '254705912645' },
      credit: { shortcode: '600984', account: 'Utility Account' },
    });
    expect(await client.settled()).toMatchObject({ stage: 'completed', confirmation: 'delivered' });
  });

  it('masks the MSISDN after a v2 registration, whichever simulate path', async () => {
    await setUp('v2');
    await client.simulate(payment({ Msisdn: '254708374149', Amount: '25' }), 'v1');
    await merchant.waitFor(1);
    expect(merchant.of('confirmation')[0]).toMatchObject({
      MSISDN: '2547 ***** 149',
      TransAmount: '25.00',
      FirstName: 'John',
      MiddleName: '',
      LastName: 'Doe',
    });
  });

  it('pays a till’s merchant account for Buy Goods', async () => {
    await sim.ledger.setShortcode('600984', { kind: 'till' });
    await setUp('v1');
    await client.simulate(payment({ CommandID: 'CustomerBuyGoodsOnline', BillRefNumber: null }));
    await merchant.waitFor(1);
    expect(merchant.of('confirmation')[0]).toMatchObject({
      TransactionType: 'Buy Goods',
      BillRefNumber: '',
      OrgAccountBalance: '1.00',
    });
  });

  it('is not sent for a shortcode with no URLs, which is paid all the same', async () => {
    const answer = await client.simulate(payment({ ShortCode: 600777 }));
    expect(answer.status).toBe(200);
    expect(await client.settled()).toMatchObject({ stage: 'completed', confirmation: null });
    expect(sim.ledger.shortcode('600777').accounts['Utility Account']).toBe(1_000_000_00 + 100);
    expect(merchant.received).toEqual([]);
  });
});

describe('the validation request', () => {
  it('goes first, once turned on, with OrgAccountBalance blank; an accept passes its ThirdPartyTransID on', async () => {
    await setUp('v1', true);
    merchant.answers.push({
      body: { ResultCode: '0', ResultDesc: 'Accepted', ThirdPartyTransID: 'INV-1' },
    });
    await client.simulate(payment());
    await merchant.waitFor(2);
    expect(merchant.received.map((each) => each.path)).toEqual(['validation', 'confirmation']);
    const [validation] = merchant.of('validation');
    const [confirmation] = merchant.of('confirmation');
    expect(validation).toMatchObject({
      OrgAccountBalance: '',
      ThirdPartyTransID: '',
      MSISDN: HASHED,
    });
    expect(validation.TransID).toBe(confirmation.TransID);
    expect(confirmation).toMatchObject({
      ThirdPartyTransID: 'INV-1',
      OrgAccountBalance: '1000001.00',
    });
    expect(await client.settled()).toMatchObject({
      stage: 'completed',
      validation: { state: 'delivered', resultCode: '0', decidedBy: 'merchant' },
    });
  });

  it('takes the number 0 as an accept', async () => {
    await setUp('v1', true);
    merchant.answers.push({ body: { ResultCode: 0, ResultDesc: 'Accepted' } });
    await client.simulate(payment());
    expect(await client.settled()).toMatchObject({ stage: 'completed' });
  });

  it.each(['C2B00011', 'C2B00012', 'C2B00013', 'C2B00014', 'C2B00015', 'C2B00016', 'X1'])(
    'rejected with %s: cancelled, no confirmation, nothing moves',
    async (code) => {
      await setUp('v1', true);
      const before = utility();
      merchant.answers.push({ body: { ResultCode: code, ResultDesc: 'Rejected' } });
      await client.simulate(payment());
      const settled = await client.settled();
      expect(settled).toMatchObject({
        stage: 'cancelled',
        confirmation: null,
        validation: { resultCode: code, decidedBy: 'merchant' },
      });
      expect(merchant.of('confirmation')).toEqual([]);
      expect(utility()).toBe(before);
      expect(sim.ledger.byReceipt(settled.transId)).toMatchObject({ status: 'Cancelled' });
    },
  );

  describe.each([
    ['no answer in time', { silent: true } as const],
    ['a 500', { status: 500 }],
    ['a body that is not JSON', { raw: 'OK' }],
    ['JSON without a ResultCode', { body: { ok: true } }],
  ])('with %s', (_case, answer) => {
    it('completes under ResponseType Completed', async () => {
      await setUp('v1', true);
      await client.control('/c2b/shortcodes/600984', 'PUT', { validationTimeoutMs: 300 });
      merchant.answers.push(answer);
      await client.simulate(payment());
      await merchant.waitFor(2);
      expect(await client.settled()).toMatchObject({
        stage: 'completed',
        validation: { resultCode: null, decidedBy: 'response-type' },
      });
    });

    it('cancels under ResponseType Cancelled, with no confirmation', async () => {
      await setUp('v2', true, { ResponseType: 'Cancelled' });
      await client.control('/c2b/shortcodes/600984', 'PUT', { validationTimeoutMs: 300 });
      merchant.answers.push(answer);
      const before = utility();
      await client.simulate(payment());
      expect(await client.settled()).toMatchObject({
        stage: 'cancelled',
        validation: { decidedBy: 'response-type' },
      });
      expect(merchant.of('confirmation')).toEqual([]);
      expect(utility()).toBe(before);
    });
  });

  it('waits SIM_C2B_VALIDATION_TIMEOUT_MS unless the shortcode says', async () => {
    await sim.close();
    sim = await startSimulator({ SIM_C2B_VALIDATION_TIMEOUT_MS: '200' });
    client = c2bClient(sim);
    await setUp('v1', true, { ResponseType: 'Cancelled' });
    merchant.answers.push({ silent: true });
    const started = Date.now();
    await client.simulate(payment());
    expect(await client.settled()).toMatchObject({ stage: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('a wallet that cannot pay', () => {
  it('gets no validation and no confirmation, and nothing moves', async () => {
    await setUp('v1', true);
    await client.control('/ledger/wallets/254705912645', 'PUT', { balance: 0 });
    const before = utility();
    expect((await client.simulate(payment())).status).toBe(200);
    const settled = await client.settled();
    expect(settled).toMatchObject({ stage: 'failed', validation: { state: null } });
    expect(settled.reason).toMatch(/holds KES 0.00/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(merchant.received).toEqual([]);
    expect(utility()).toBe(before);
  });
});
