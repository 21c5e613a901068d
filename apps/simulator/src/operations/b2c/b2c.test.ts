/**
 * B2C as a client sees it (docs/daraja-protocol.md §M4): the acknowledgement, each field's
 * refusal, the spellings, the repeated OriginatorConversationID, and the Result of a paid payout
 * with the ledger before and after. b2c-results.test.ts has every failing Result.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { payout, startPaymentRig, V1, V3, type PaymentRig } from '../../test/payments.ts';

const REQUEST_ID = /^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\d{4,8}$/;
const CONVERSATION_ID = /^AG_20\d{6}_[0-9a-f]{20}$/;

let rig: PaymentRig;
beforeEach(async () => {
  rig = await startPaymentRig();
});
afterEach(() => rig.close());

describe('a paid B2C payout', () => {
  it('is acknowledged at once, with the client’s OriginatorConversationID (v3)', async () => {
    const request = payout(rig);
    const answer = await rig.post(V3, request);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual([
      'OriginatorConversationID',
      'ConversationID',
      'ResponseCode',
      'ResponseDescription',
    ]);
    expect(answer.body).toEqual({
      OriginatorConversationID: request.OriginatorConversationID,
      ConversationID: expect.stringMatching(CONVERSATION_ID),
      ResponseCode: '0',
      ResponseDescription: 'Accept the service request successfully.',
    });
  });

  it('moves the money and posts §M4.3’s Result, each parameter in its type', async () => {
    const { ledger } = rig.sim;
    const utility = ledger.shortcode('600992').accounts['Utility Account']!;
    const wallet = ledger.wallet('254705912645').balance;
    const answer = await rig.post(V3, payout(rig, { Amount: 1500 }));
    const result = await rig.nextResult();
    const receipt = result.TransactionID as string;
    expect(receipt).toMatch(/^[A-Z][A-Z0-9]{9}$/);
    expect(result).toEqual({
      ResultType: 0,
      ResultCode: 0,
      ResultDesc: 'The service request is processed successfully.',
      OriginatorConversationID: answer.body.OriginatorConversationID,
      ConversationID: answer.body.ConversationID,
      TransactionID: receipt,
      ResultParameters: {
        ResultParameter: [
          { Key: 'TransactionAmount', Value: 1500 },
          { Key: 'TransactionReceipt', Value: receipt },
          { Key: 'ReceiverPartyPublicName', Value: '254705912645 - NICHOLAS JOHN SONGOK' },
          {
            Key: 'TransactionCompletedDateTime',
            Value: expect.stringMatching(/^\d{2}\.\d{2}\.20\d{2} \d{2}:\d{2}:\d{2}$/),
          },
          { Key: 'B2CUtilityAccountAvailableFunds', Value: (utility - 1500_00) / 100 },
          { Key: 'B2CWorkingAccountAvailableFunds', Value: 500000 },
          { Key: 'B2CRecipientIsRegisteredCustomer', Value: 'Y' },
          { Key: 'B2CChargesPaidAccountAvailableFunds', Value: -22.4 },
        ],
      },
      ReferenceData: {
        ReferenceItem: {
          Key: 'QueueTimeoutURL',
          Value: 'https://internalsandbox.safaricom.co.ke/mpesa/b2cresults/v1/submit',
        },
      },
    });
    expect(ledger.shortcode('600992').accounts).toMatchObject({
      'Utility Account': utility - 1500_00,
      'Charges Paid Account': -22_40,
    });
    expect(ledger.wallet('254705912645').balance).toBe(wallet + 1500_00);
    expect(ledger.byReceipt(receipt)).toMatchObject({
      kind: 'b2c',
      status: 'Completed',
      amount: 1500_00,
      charges: 22_40,
      originatorConversationId: answer.body.OriginatorConversationID,
      conversationId: answer.body.ConversationID,
    });
  });

  it('dates the payout dd.MM.yyyy HH:mm:ss in Nairobi', async () => {
    await rig.post(V3, payout(rig));
    const result = await rig.nextResult();
    const at = new Date(rig.sim.clock.now().getTime() + 3 * 3600_000).toISOString();
    const [date] = at.split('T') as [string];
    const [year, month, day] = date.split('-');
    const completed = result.ResultParameters.ResultParameter[3].Value as string;
    expect(completed.slice(0, 10)).toBe(`${day}.${month}.${year}`);
  });

  it('takes v1 with no OriginatorConversationID: the gateway makes one; and `Occasion`', async () => {
    const { OriginatorConversationID: _id, Occassion: _occasion, ...v1 } = payout(rig);
    const answer = await rig.post(V1, { ...v1, Occasion: 'Salary', Amount: 10 });
    expect(answer.status).toBe(200);
    expect(answer.body.OriginatorConversationID).toMatch(REQUEST_ID);
    const result = await rig.nextResult();
    expect(result).toMatchObject({
      ResultCode: 0,
      OriginatorConversationID: answer.body.OriginatorConversationID,
    });
  });

  it('takes numbers for Amount, PartyA and PartyB, a CommandID with spaces and extra keys', async () => {
    const answer = await rig.post(
      V3,
      payout(rig, {
        Amount: 10,
        PartyA: 600992,
        PartyB: 254705912645,
        CommandID: ' SalaryPayment ',
        Extra: 1,
      }),
    );
    expect(answer.status).toBe(200);
    expect((await rig.nextResult()).ResultCode).toBe(0);
  });
});

describe('B2C’s refusals at once', () => {
  it.each([
    ['OriginatorConversationID', { OriginatorConversationID: undefined }],
    ['OriginatorConversationID', { OriginatorConversationID: '   ' }],
    ['CommandID', { CommandID: 'CustomerPayment' }],
    ['CommandID', { CommandID: undefined }],
    ['Amount', { Amount: 'ten' }],
    ['Amount', { Amount: 10.5 }],
    ['Amount', { Amount: -10 }],
    ['PartyA', { PartyA: '1234' }],
    ['PartyA', { PartyA: '60099212' }],
    ['PartyB', { PartyB: '0705912645' }],
    ['PartyB', { PartyB: '+254705912645' }],
    ['Remarks', { Remarks: 'x' }],
    ['Remarks', { Remarks: 'r'.repeat(101) }],
    ['QueueTimeOutURL', { QueueTimeOutURL: undefined, QueueTimeoutURL: 'https://example.com' }],
    ['ResultURL', { ResultURL: 'not a url' }],
    ['Occassion', { Occassion: 'o'.repeat(101) }],
    // B2C's initiator is InitiatorName: `Initiator`, the other APIs' spelling, is no such field.
    ['InitiatorName', { InitiatorName: undefined, Initiator: 'testapi' }],
    ['SecurityCredential', { SecurityCredential: undefined }],
  ])('Invalid %s: %j', async (field, fields) => {
    const answer = await rig.post(V3, payout(rig, fields));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      requestId: expect.stringMatching(REQUEST_ID),
      errorCode: '400.002.02',
      errorMessage: `Bad Request - Invalid ${field}`,
    });
    expect(rig.sim.ledger.transactions()).toEqual([]);
  });

  it('refuses a repeated OriginatorConversationID for 24 hours of the simulator’s clock', async () => {
    const request = payout(rig);
    expect((await rig.post(V3, request)).status).toBe(200);
    const again = await rig.post(V3, { ...request, Amount: 20 });
    expect(again.status).toBe(500);
    expect(again.body).toEqual({
      requestId: expect.stringMatching(REQUEST_ID),
      errorCode: '500.002.1001',
      errorMessage: 'Duplicate OriginatorConversationID.',
    });
    await rig.nextResult();
    expect(rig.sim.ledger.transactions()).toHaveLength(1);
    await rig.control('/clock/advance', { seconds: 24 * 3600 - 60 }, 'POST');
    expect((await rig.post(V3, request)).status).toBe(500);
    await rig.control('/clock/advance', { seconds: 60 }, 'POST');
    expect((await rig.post(V3, request)).status).toBe(200);
  });

  it('leaves an id unused when the request was refused, and forgets ids on reset', async () => {
    const request = payout(rig);
    expect((await rig.post(V3, { ...request, SecurityCredential: undefined })).status).toBe(400);
    expect((await rig.post(V3, request)).status).toBe(200);
    await rig.control('/reset', undefined, 'POST');
    expect((await rig.post(V3, request)).status).toBe(200);
  });

  it('is named b2c by the fault rules', async () => {
    const rules = [{ operation: 'b2c', probability: 1, error: 'quota' }];
    expect((await rig.control('/faults', { rules })).status).toBe(200);
    const answer = await rig.post(V3, payout(rig));
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ errorCode: '500.003.03', errorMessage: 'Quota Violation' });
    expect(rig.sim.ledger.transactions()).toEqual([]);
  });
});
