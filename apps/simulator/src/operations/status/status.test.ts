/**
 * Transaction status as a client sees it (docs/daraja-protocol.md §M5): the acknowledgement, the
 * Result with a transaction's real state in Daraja's shapes, each field's refusal, the spellings,
 * the credential, and what it posts for a transaction it cannot find.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SHORTCODE } from '../../test/harness.ts';
import { credentialFor } from '../../test/initiators.ts';
import { startApiRig, type ApiRig } from '../../test/result-apis.ts';

const ACK = {
  OriginatorConversationID: expect.stringMatching(/^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-/),
  ConversationID: expect.stringMatching(/^AG_\d{8}_[0-9a-f]{20}$/),
  ResponseCode: '0',
  ResponseDescription: 'Accept the service request successfully.',
};
const TIME = expect.stringMatching(/^20\d{12}$/);

let rig: ApiRig;
beforeAll(async () => {
  rig = await startApiRig();
});
afterAll(() => rig.close());
beforeEach(async () => {
  await rig.sim.app.inject({ method: 'POST', url: '/_sim/reset' });
  rig.results.received.length = 0;
});

describe('POST /mpesa/transactionstatus/v1/query', () => {
  it("acknowledges, then posts an STK payment's state with §M5's parameters by name and type", async () => {
    const receipt = await rig.stkPayment('254708374149', 300);
    const answer = await rig.send('status', rig.request('status', { TransactionID: receipt }));
    expect(answer).toEqual({ status: 200, body: ACK });
    const { Result } = await rig.result(0);
    expect(Result).toEqual({
      ResultType: 0,
      ResultCode: 0,
      ResultDesc: 'The service request is processed successfully.',
      OriginatorConversationID: answer.body.OriginatorConversationID,
      ConversationID: answer.body.ConversationID,
      TransactionID: expect.stringMatching(/^[A-Z]{3}0000000$/),
      ResultParameters: {
        ResultParameter: [
          { Key: 'DebitPartyName', Value: '254708374149 - John Doe' },
          { Key: 'DebitPartyName', Value: `${SHORTCODE} - Sandbox Test Merchant` },
          { Key: 'OriginatorConversationID' },
          { Key: 'InitiatedTime', Value: TIME },
          { Key: 'DebitAccountType', Value: 'MMF Account For Customer' },
          { Key: 'DebitPartyCharges' },
          { Key: 'TransactionReason' },
          { Key: 'ReasonType', Value: 'Pay Bill Online' },
          { Key: 'TransactionStatus', Value: 'Completed' },
          { Key: 'FinalisedTime', Value: TIME },
          { Key: 'Amount', Value: '300' },
          { Key: 'ConversationID' },
          { Key: 'ReceiptNo', Value: receipt },
        ],
      },
      ReferenceData: { ReferenceItem: { Key: 'Occasion', Value: 'OK' } },
    });
  });

  it('finds a B2C payout by OriginalConversationID, with its charges and ids', async () => {
    const paid = rig.sim.ledger.move({
      kind: 'b2c',
      amount: 1_234_50,
      charges: 22_40,
      from: { shortcode: '600992', account: 'Utility Account' },
      to: { msisdn: '254705912645' },
      conversationId: 'AG_20260314_000041b09c22e613d6c9',
      originatorConversationId: 'oc-600992-1',
    });
    if (!paid.ok) throw new Error(paid.message);
    const { Occasion: _none, ...request } = rig.request('status', {
      OriginalConversationID: 'oc-600992-1',
      PartyA: 600992,
      IdentifierType: 4,
    });
    expect((await rig.send('status', request)).status).toBe(200);
    const { Result } = await rig.result(0);
    const values = Object.fromEntries(
      Result.ResultParameters.ResultParameter.slice(2).map((p: any) => [p.Key, p.Value]), // eslint-disable-line @typescript-eslint/no-explicit-any
    );
    expect(Result.ResultParameters.ResultParameter.slice(0, 2)).toEqual([
      { Key: 'DebitPartyName', Value: '600992 - Safaricom Daraja 992' },
      { Key: 'DebitPartyName', Value: '254705912645 - NICHOLAS JOHN SONGOK' },
    ]);
    expect(values).toMatchObject({
      OriginatorConversationID: 'oc-600992-1',
      DebitAccountType: 'Utility Account',
      DebitPartyCharges: 'Fee For B2C Payment|KES|22.40',
      ReasonType: 'Business Payment to Customer via API',
      Amount: '1234.50',
      ConversationID: 'AG_20260314_000041b09c22e613d6c9',
      ReceiptNo: paid.transaction.receipt,
    });
    expect(Result.ReferenceData).toEqual({ ReferenceItem: { Key: 'Occasion' } });
  });

  it('reports a declined transaction as Declined, and a customer may ask with IdentifierType 1', async () => {
    const declined = rig.sim.ledger.record(
      {
        kind: 'stk',
        amount: 500,
        from: { msisdn: '254711222333' },
        to: { shortcode: SHORTCODE, account: 'Utility Account' },
      },
      'Declined',
    );
    const request = rig.request('status', {
      TransactionID: declined.receipt,
      PartyA: '254711222333',
      IdentifierType: '1',
    });
    await rig.send('status', request);
    const { Result } = await rig.result(0);
    expect(Result.ResultParameters.ResultParameter).toContainEqual({
      Key: 'TransactionStatus',
      Value: 'Declined',
    });
    expect(Result.ResultParameters.ResultParameter).toContainEqual({ Key: 'Amount', Value: '5' });
  });

  it.each([
    ['an unknown receipt', { TransactionID: 'UAA0000001' }],
    ['an unknown OriginalConversationID', { OriginalConversationID: 'never-sent' }],
  ])('posts R000002, no parameters and a placeholder, for %s', async (_case, asked) => {
    await rig.send('status', rig.request('status', asked));
    const { Result } = await rig.result(0);
    expect(Result).toEqual({
      ResultType: 0,
      ResultCode: 'R000002',
      ResultDesc: 'The OriginalTransactionID is invalid.',
      OriginatorConversationID: expect.any(String),
      ConversationID: expect.any(String),
      TransactionID: expect.stringMatching(/^[A-Z]{3}0000000$/),
      ReferenceData: { ReferenceItem: { Key: 'Occasion', Value: 'OK' } },
    });
  });

  it('posts R000002 for a transaction PartyA had no part in', async () => {
    const receipt = await rig.stkPayment('254708374149', 10);
    await rig.send('status', rig.request('status', { TransactionID: receipt, PartyA: '600000' }));
    expect((await rig.result(0)).Result.ResultCode).toBe('R000002');
  });

  it.each([
    ['1 with the shortcode as PartyA, as daraja.js always sends it', '1', SHORTCODE],
    ['2 (a till) with the shortcode', '2', SHORTCODE],
    ['4 with the customer’s number', '4', '254708374149'],
  ])(
    'takes IdentifierType %s: PartyA is matched by its number',
    async (_case, IdentifierType, PartyA) => {
      const receipt = await rig.stkPayment('254708374149', 10);
      const request = rig.request('status', { TransactionID: receipt, IdentifierType, PartyA });
      expect((await rig.send('status', request)).status).toBe(200);
      const { Result } = await rig.result(0);
      expect(Result.ResultCode).toBe(0);
      expect(Result.ResultParameters.ResultParameter).toContainEqual({
        Key: 'ReceiptNo',
        Value: receipt,
      });
    },
  );

  it('is in the request log (and so the journal) under its whole path', async () => {
    await rig.send('status', rig.request('status', { TransactionID: 'UAA0000001' }));
    const paths = rig.sim.log
      .list({ kind: 'request' })
      .map((entry) => ('path' in entry ? entry.path : ''));
    expect(paths).toContain('/mpesa/transactionstatus/v1/query');
  });

  it('acknowledges an unknown party with any IdentifierType, then posts R000002', async () => {
    const receipt = await rig.stkPayment('254708374149', 10);
    for (const [IdentifierType, PartyA] of [
      ['1', '600000'],
      ['4', '254711000111'],
    ]) {
      const request = rig.request('status', { TransactionID: receipt, IdentifierType, PartyA });
      expect((await rig.send('status', request)).status).toBe(200);
    }
    for (const index of [0, 1]) {
      expect((await rig.result(index)).Result.ResultCode).toBe('R000002');
    }
  });

  it('plays a magic number: a payment from 254700040003 is reported SFC_IC0003', async () => {
    const receipt = await rig.stkPayment('254700040003', 10);
    await rig.send('status', rig.request('status', { TransactionID: receipt }));
    expect((await rig.result(0)).Result).toMatchObject({
      ResultCode: 'SFC_IC0003',
      ResultDesc: 'The operator does not exist.',
    });
  });

  it.each([
    ['CommandID', { CommandID: 'TransactionStatus' }],
    ['CommandID', { CommandID: undefined }],
    ['TransactionID', { TransactionID: undefined }],
    // A client that spells the key as the Result does gets no OriginalConversationID at all.
    ['TransactionID', { TransactionID: undefined, OriginatorConversationID: 'oc-1' }],
    ['PartyA', { PartyA: undefined }],
    ['PartyA', { PartyA: '1234' }],
    ['PartyA', { PartyA: '2547083741490' }],
    ['PartyA', { PartyA: 'sixhundred' }],
    ['IdentifierType', { IdentifierType: '3' }],
    ['IdentifierType', { IdentifierType: undefined }],
    ['ResultURL', { ResultURL: 'not a url' }],
    ['QueueTimeOutURL', { QueueTimeOutURL: undefined }],
    ['Remarks', { Remarks: undefined }],
    ['Remarks', { Remarks: 'R'.repeat(101) }],
    ['Occasion', { Occasion: 42 }],
    ['Initiator', { Initiator: undefined }],
    ['SecurityCredential', { SecurityCredential: '' }],
  ])('refuses a bad %s at once: %j', async (field, fields) => {
    const answer = await rig.send(
      'status',
      rig.request('status', { TransactionID: 'UAA1', ...fields }),
    );
    expect(answer).toEqual({
      status: 400,
      body: {
        requestId: expect.any(String),
        errorCode: '400.002.02',
        errorMessage: `Bad Request - Invalid ${field}`,
      },
    });
  });

  it('acknowledges a wrong credential, then posts 2001; a locked initiator gets 8006', async () => {
    const wrong = {
      TransactionID: 'UAA1',
      SecurityCredential: await credentialFor(rig.sim, 'nope'),
    };
    for (let time = 1; time <= 5; time++) {
      expect((await rig.send('status', rig.request('status', wrong))).status).toBe(200);
    }
    const locked = await rig.send('status', rig.request('status', { TransactionID: 'UAA1' }));
    await rig.result(5);
    // The six Results travel at once, so they may arrive in any order: each is found by its id.
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map((index) => rig.result(index)));
    const lockedId = locked.body.ConversationID as string;
    for (const { Result } of results) {
      expect(Result).toMatchObject(
        Result.ConversationID === lockedId
          ? { ResultCode: 8006, ResultDesc: 'The security credential is locked.' }
          : { ResultCode: 2001, ResultDesc: 'The initiator information is invalid.' },
      );
    }
  });
});
