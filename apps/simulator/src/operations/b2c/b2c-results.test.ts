/**
 * B2C's failing Results (docs/daraja-protocol.md §M4.4, §M4.5): each code from its magic number
 * and from the ledger's own refusals, the credential's 2001 and 8006, a number's chosen outcome,
 * and the Result's delivery under the fault rules and the simulator's clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { payout, startPaymentRig, V3, type PaymentRig } from '../../test/payments.ts';

let rig: PaymentRig;
afterEach(() => rig.close());

const PLACEHOLDER = /^[A-Z]{3}0000000$/;

/** A failed Result as every source has it: no ResultParameters, a placeholder TransactionID. */
function failed(resultCode: number | string, resultDesc: string) {
  return {
    ResultType: 0,
    ResultCode: resultCode,
    ResultDesc: resultDesc,
    OriginatorConversationID: expect.any(String),
    ConversationID: expect.any(String),
    TransactionID: expect.stringMatching(PLACEHOLDER),
    ReferenceData: {
      ReferenceItem: {
        Key: 'QueueTimeoutURL',
        Value: 'https://internalsandbox.safaricom.co.ke/mpesa/b2cresults/v1/submit',
      },
    },
  };
}

const DESCS: Record<string, string> = {
  '1': 'The balance is insufficient for the transaction.',
  '2': 'Declined due to limit rule',
  '3': 'Declined due to limit rule: greater than the maximum transaction amount.',
  '4': 'Declined due to limit rule: would exceed daily transfer limit',
  '8': 'Declined due to limit rule: would exceed the maximum balance.',
  '2001': 'The initiator information is invalid.',
  '2028': 'The request is not permitted according to product assignment.',
  '2040':
    "Credit Party customer type (Unregistered or Registered Customer) can't be supported by the service.",
  '8006': 'The security credential is locked',
  SFC_IC0003: 'The operator does not exist.',
};
const written = (code: string) => (/^\d+$/.test(code) ? Number(code) : code);

describe('B2C’s magic numbers', () => {
  it.each([
    ['254700020001', '1'],
    ['254700020002', '2'],
    ['254700020003', '3'],
    ['254700020004', '4'],
    ['254700020008', '8'],
    ['254700022040', '2040'],
    ['254700020033', 'SFC_IC0003'],
    ['254700022001', '2001'],
    ['254700028006', '8006'],
  ])('%s fails with %s and moves nothing', async (number, code) => {
    rig = await startPaymentRig();
    const utility = rig.sim.ledger.shortcode('600992').accounts['Utility Account'];
    expect((await rig.post(V3, payout(rig, { PartyB: number }))).status).toBe(200);
    const result = await rig.nextResult();
    expect(result).toEqual(failed(written(code), DESCS[code]!));
    expect(rig.sim.ledger.shortcode('600992').accounts['Utility Account']).toBe(utility);
    // M-PESA's books keep a declined payout, so that transaction status finds it; a wrong
    // credential never reaches them.
    const books = rig.sim.ledger.transactions();
    if (code === '2001' || code === '8006') expect(books).toEqual([]);
    else {
      expect(books).toEqual([expect.objectContaining({ kind: 'b2c', status: 'Declined' })]);
      const found = rig.sim.ledger.byOriginatorConversationId(result.OriginatorConversationID);
      expect(found).toMatchObject({ status: 'Declined', amount: 10_00, charges: 0 });
    }
  });

  it('are listed by GET /_sim/info under b2c', async () => {
    rig = await startPaymentRig();
    const info = await rig.control('/info', undefined, 'GET');
    expect(info.body.forcedNumbersByApi.b2c['254700022040']).toEqual({
      resultCode: '2040',
      meaning: 'the customer is not registered',
    });
  });
});

describe('B2C’s failures from the ledger', () => {
  it.each([
    ['1: the utility account is short', { Amount: 5000 }, '1'],
    ['2: below KES 10', { Amount: 9 }, '2'],
    ['3: above KES 250,000', { Amount: 250_001 }, '3'],
    ['8: past the wallet’s maximum', { PartyB: '254711000008', Amount: 20 }, '8'],
    ['SFC_IC0003: not a customer’s number', { PartyB: '254200000000' }, 'SFC_IC0003'],
    ['2028: PartyA is a till, with no utility account', { PartyA: '700700' }, '2028'],
    ['2040: an unregistered customer (BusinessPayment)', { PartyB: '254711002040' }, '2040'],
  ])('%s', async (_case, fields, code) => {
    rig = await startPaymentRig();
    const { ledger } = rig.sim;
    ledger.setShortcode('600992', { balances: { 'Utility Account': 4999_00 } });
    ledger.setShortcode('700700', { kind: 'till' });
    ledger.setWallet('254711000008', { balance: 499_990_00 });
    ledger.setWallet('254711002040', { registered: false });
    expect((await rig.post(V3, payout(rig, fields))).status).toBe(200);
    expect(await rig.nextResult()).toEqual(failed(written(code), DESCS[code]!));
    expect(ledger.shortcode('600992').accounts['Utility Account']).toBe(4999_00);
  });

  it('keeps no transaction for a number no customer can have, which has no party to book', async () => {
    rig = await startPaymentRig();
    await rig.post(V3, payout(rig, { PartyB: '254200000000' }));
    expect((await rig.nextResult()).ResultCode).toBe('SFC_IC0003');
    expect(rig.sim.ledger.transactions()).toEqual([]);
  });

  it('4: past the customer’s daily limit of KES 500,000 received', async () => {
    rig = await startPaymentRig();
    rig.sim.ledger.setWallet('254711000004', { balance: 0 });
    for (let paid = 0; paid < 2; paid++) {
      await rig.post(V3, payout(rig, { PartyB: '254711000004', Amount: 250_000 }));
      expect((await rig.nextResult()).ResultCode).toBe(0);
    }
    rig.sim.ledger.setWallet('254711000004', { balance: 0 });
    await rig.post(V3, payout(rig, { PartyB: '254711000004', Amount: 10 }));
    expect(await rig.nextResult()).toEqual(failed(4, DESCS['4']!));
  });

  it('pays an unregistered customer a SalaryPayment, saying N', async () => {
    rig = await startPaymentRig();
    rig.sim.ledger.setWallet('254711002040', { registered: false });
    await rig.post(V3, payout(rig, { PartyB: '254711002040', CommandID: 'SalaryPayment' }));
    const result = await rig.nextResult();
    expect(result.ResultCode).toBe(0);
    expect(result.ResultParameters.ResultParameter).toContainEqual({
      Key: 'B2CRecipientIsRegisteredCustomer',
      Value: 'N',
    });
  });
});

describe('B2C and the initiator’s credential', () => {
  it('a wrong password is acknowledged, then fails with 2001; locked, 8006', async () => {
    rig = await startPaymentRig({ SIM_INITIATOR_LOCK_AFTER: '2' });
    const wrong = { SecurityCredential: 'wrong password' };
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await rig.post(V3, payout(rig, wrong))).status).toBe(200);
      expect(await rig.nextResult()).toEqual(failed(2001, DESCS['2001']!));
    }
    expect((await rig.post(V3, payout(rig))).status).toBe(200);
    expect(await rig.nextResult()).toEqual(failed(8006, DESCS['8006']!));
    expect(rig.sim.ledger.transactions()).toEqual([]);
  });
});

describe('a number’s chosen outcome for B2C', () => {
  it('PUT /_sim/numbers/:phone/next with api b2c plays once, with its delivery fault', async () => {
    rig = await startPaymentRig();
    const chosen = { api: 'b2c', outcome: '4', fault: { duplicates: 1 } };
    expect((await rig.control('/numbers/0705912645/next', chosen)).status).toBe(200);
    await rig.post(V3, payout(rig));
    expect(await rig.nextResult()).toEqual(failed(4, DESCS['4']!));
    expect(await rig.nextResult()).toEqual(failed(4, DESCS['4']!));
    await rig.post(V3, payout(rig));
    expect((await rig.nextResult()).ResultCode).toBe(0);
  });
});

describe('the delivery of a B2C Result', () => {
  it('waits SIM_CALLBACK_DELAY_MS on the simulator’s clock', async () => {
    rig = await startPaymentRig({ SIM_CALLBACK_DELAY_MS: '60000' });
    await rig.post(V3, payout(rig));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rig.results.received).toEqual([]);
    // The money moved when the payout was accepted; only the Result waits.
    expect(rig.sim.ledger.transactions()).toHaveLength(1);
    await rig.control('/clock/advance', { seconds: 60 }, 'POST');
    expect((await rig.nextResult()).ResultCode).toBe(0);
  });

  it('obeys the callback fault rules: a dropped Result never comes, the money moved', async () => {
    rig = await startPaymentRig();
    const rules = [{ operation: 'callback', probability: 1, error: 'drop' }];
    expect((await rig.control('/faults', { rules })).status).toBe(200);
    expect((await rig.post(V3, payout(rig))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(rig.results.received).toEqual([]);
    expect(rig.sim.ledger.transactions()).toHaveLength(1);
  });
});
