/**
 * B2B as a client sees it (docs/daraja-protocol.md §M8.1): each field's refusal and the
 * `RecieverIdentifierType` spelling, the Result of a paybill and a till payment with the ledger
 * before and after, the failures, the magic shortcodes and the credential.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPaymentRig, type PaymentRig } from '../../test/payments.ts';
import { B2B_PATH } from './b2b.routes.ts';

let rig: PaymentRig;
beforeEach(async () => {
  rig = await startPaymentRig({ SIM_INITIATOR_LOCK_AFTER: '1' });
});
afterEach(() => rig.close());

const payment = (fields: Record<string, unknown> = {}) => ({
  Initiator: 'testapi',
  SecurityCredential: rig.credential,
  CommandID: 'BusinessPayBill',
  SenderIdentifierType: '4',
  RecieverIdentifierType: '4',
  Amount: '190',
  PartyA: '600992',
  PartyB: '600000',
  AccountReference: '353353',
  Requester: '254708374149',
  Remarks: 'OK',
  QueueTimeOutURL: 'https://example.com/timeout',
  ResultURL: rig.results.url,
  Occassion: 'Invoice',
  ...fields,
});

const QUEUE = {
  Key: 'QueueTimeoutURL',
  Value: 'https://internalsandbox.safaricom.co.ke/mpesa/b2bresults/v1/submit',
};

describe('a paid B2B payment', () => {
  it('pays a paybill from the Working Account and posts §M8.1’s Result, in its odd shapes', async () => {
    const { ledger } = rig.sim;
    const utility = ledger.shortcode('600000').accounts['Utility Account']!;
    const answer = await rig.post(B2B_PATH, payment());
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ResponseCode: '0' });
    const result = await rig.nextResult();
    const receipt = result.TransactionID as string;
    expect(result).toEqual({
      ResultType: 0,
      ResultCode: 0,
      ResultDesc: 'The service request is processed successfully.',
      OriginatorConversationID: answer.body.OriginatorConversationID,
      ConversationID: answer.body.ConversationID,
      TransactionID: expect.stringMatching(/^[A-Z][A-Z0-9]{9}$/),
      ResultParameters: {
        ResultParameter: [
          {
            Key: 'DebitAccountBalance',
            Value: '{Amount={CurrencyCode=KES, MinimumAmount=49981000, BasicAmount=499810.00}}',
          },
          { Key: 'Amount', Value: '190.00' },
          {
            Key: 'DebitPartyAffectedAccountBalance',
            Value: 'Working Account|KES|499810.00|499810.00|0.00|0.00',
          },
          { Key: 'TransCompletedTime', Value: expect.stringMatching(/^20\d{12}$/) },
          { Key: 'DebitPartyCharges', Value: '' },
          { Key: 'ReceiverPartyPublicName', Value: '600000 - Safaricom Daraja 000' },
          { Key: 'Currency', Value: 'KES' },
          {
            Key: 'InitiatorAccountCurrentBalance',
            Value: '{Amount={CurrencyCode=KES, MinimumAmount=49981000, BasicAmount=499810.00}}',
          },
        ],
      },
      ReferenceData: {
        ReferenceItem: [{ Key: 'BillReferenceNumber', Value: '353353' }, QUEUE],
      },
    });
    expect(ledger.shortcode('600992').accounts['Working Account']).toBe(499_810_00);
    expect(ledger.shortcode('600000').accounts['Utility Account']).toBe(utility + 190_00);
    expect(ledger.byReceipt(receipt)).toMatchObject({ kind: 'b2b', reference: '353353' });
  });

  it('pays a till’s Merchant Account (BusinessBuyGoods), AccountReference optional', async () => {
    const { AccountReference: _reference, ...buyGoods } = payment({
      CommandID: 'BusinessBuyGoods',
      PartyB: 373132,
      Amount: 50,
    });
    expect((await rig.post(B2B_PATH, buyGoods)).status).toBe(200);
    const result = await rig.nextResult();
    expect(result.ResultCode).toBe(0);
    expect(result.ReferenceData.ReferenceItem).toEqual(QUEUE);
    expect(rig.sim.ledger.shortcode('373132').accounts).toEqual({
      'Merchant Account': 50_00,
      'Charges Paid Account': 0,
    });
  });
});

describe('B2B’s refusals at once', () => {
  it.each([
    ['CommandID', { CommandID: 'BusinessPayment' }],
    ['SenderIdentifierType', { SenderIdentifierType: '2' }],
    // The correct spelling is not Daraja's: the field is missing (§M1.2).
    ['RecieverIdentifierType', { RecieverIdentifierType: undefined, ReceiverIdentifierType: '4' }],
    ['Amount', { Amount: 0 }],
    ['Amount', { Amount: '1.5' }],
    ['PartyA', { PartyA: 'ABC' }],
    ['PartyB', { PartyB: '12345678' }],
    ['AccountReference', { AccountReference: undefined }],
    ['AccountReference', { AccountReference: 'A'.repeat(14) }],
    ['Requester', { Requester: '0708374149' }],
    ['Remarks', { Remarks: 'r'.repeat(101) }],
    ['QueueTimeOutURL', { QueueTimeOutURL: 'ftp://example.com' }],
    ['ResultURL', { ResultURL: undefined }],
    ['Initiator', { Initiator: undefined, InitiatorName: 'testapi' }],
    ['SecurityCredential', { SecurityCredential: '' }],
  ])('Invalid %s: %j', async (field, fields) => {
    const answer = await rig.post(B2B_PATH, payment(fields));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      errorCode: '400.002.02',
      errorMessage: `Bad Request - Invalid ${field}`,
    });
  });

  // Only the two CommandIDs of the current B2B pages are taken (§M8.1); SDKs still send words of
  // older docs: mpesa-node's default is BusinessToBusinessTransfer.
  it.each(['BusinessToBusinessTransfer', 'MerchantToMerchantTransfer', 'DisburseFundsToBusiness'])(
    'refuses the CommandID %s as Daraja refuses a field it does not take, moving nothing',
    async (CommandID) => {
      const answer = await rig.post(B2B_PATH, payment({ CommandID }));
      expect(answer).toEqual({
        status: 400,
        body: {
          requestId: expect.any(String),
          errorCode: '400.002.02',
          errorMessage: 'Bad Request - Invalid CommandID',
        },
      });
      expect(rig.sim.ledger.transactions()).toEqual([]);
    },
  );

  it('is named b2b by the fault rules', async () => {
    const rules = [{ operation: 'b2b', probability: 1, error: 'spike-arrest' }];
    expect((await rig.control('/faults', { rules })).status).toBe(200);
    expect((await rig.post(B2B_PATH, payment())).body).toMatchObject({ errorCode: '500.003.02' });
  });
});

describe('B2B’s failing Results', () => {
  const failed = (code: number | string, desc: string) => ({
    ResultCode: code,
    ResultDesc: desc,
    TransactionID: expect.stringMatching(/^[A-Z]{3}0000000$/),
    ReferenceData: { ReferenceItem: QUEUE },
  });

  it.each([
    ['700404', 'SFC_IC0003', 'The operator does not exist.'],
    ['700001', 1, 'The balance is insufficient for the transaction.'],
    ['702028', 2028, 'The request is not permitted according to product assignment.'],
    ['702001', 2001, 'The initiator information is invalid.'],
    ['708006', 8006, 'The security credential is locked'],
  ])('magic receiver %s fails with %s', async (partyB, code, desc) => {
    await rig.post(B2B_PATH, payment({ PartyB: partyB }));
    const result = await rig.nextResult();
    expect(result).toMatchObject(failed(code, desc));
    expect(result).not.toHaveProperty('ResultParameters');
    // Declined in M-PESA's books, nothing moved; a wrong credential never reaches them.
    const books = rig.sim.ledger.transactions();
    if (code === 2001 || code === 8006) expect(books).toEqual([]);
    else {
      expect(books).toEqual([expect.objectContaining({ kind: 'b2b', status: 'Declined' })]);
      expect(
        rig.sim.ledger.byOriginatorConversationId(result.OriginatorConversationID),
      ).toBeDefined();
    }
  });

  it('1 when the Working Account cannot pay; 2028 from a till, which has none', async () => {
    rig.sim.ledger.setShortcode('600992', { balances: { 'Working Account': 100_00 } });
    await rig.post(B2B_PATH, payment());
    expect(await rig.nextResult()).toMatchObject(
      failed(1, 'The balance is insufficient for the transaction.'),
    );
    rig.sim.ledger.setShortcode('373132', { kind: 'till' });
    await rig.post(B2B_PATH, payment({ PartyA: '373132' }));
    expect((await rig.nextResult()).ResultCode).toBe(2028);
    expect(rig.sim.ledger.shortcode('600992').accounts['Working Account']).toBe(100_00);
  });

  it('the Requester’s chosen outcome (PUT /_sim/numbers/:phone/next, api b2b)', async () => {
    const chosen = { api: 'b2b', outcome: 'SFC_IC0003' };
    expect((await rig.control('/numbers/0708374149/next', chosen)).status).toBe(200);
    await rig.post(B2B_PATH, payment());
    expect((await rig.nextResult()).ResultCode).toBe('SFC_IC0003');
  });

  it('a wrong credential: 2001, then locked: 8006', async () => {
    await rig.post(B2B_PATH, payment({ SecurityCredential: 'wrong' }));
    expect(await rig.nextResult()).toMatchObject(
      failed(2001, 'The initiator information is invalid.'),
    );
    await rig.post(B2B_PATH, payment());
    expect(await rig.nextResult()).toMatchObject(failed(8006, 'The security credential is locked'));
  });
});
