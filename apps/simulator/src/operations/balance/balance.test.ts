/**
 * Account balance as a client sees it (docs/daraja-protocol.md §M6): the ledger's balance in
 * Daraja's `&`/`|` string, BOCompletedTime, the failure shapes, the settings for the shapes sources
 * disagree on, and each field's refusal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SHORTCODE } from '../../test/harness.ts';
import { startApiRig, type ApiRig } from '../../test/result-apis.ts';

let rig: ApiRig;
beforeAll(async () => {
  rig = await startApiRig();
});
afterAll(() => rig.close());
beforeEach(async () => {
  await rig.sim.app.inject({ method: 'POST', url: '/_sim/reset' });
  rig.results.received.length = 0;
});

const PAYBILL =
  'Working Account|KES|500000.00|500000.00|0.00|0.00&Float Account|KES|0.00|0.00|0.00|0.00&' +
  'Utility Account|KES|1000012.50|1000012.50|0.00|0.00&Charges Paid Account|KES|0.00|0.00|0.00|0.00&' +
  'Organization Settlement Account|KES|0.00|0.00|0.00|0.00';

describe('POST /mpesa/accountbalance/v1/query', () => {
  it("posts the shortcode's balance from the ledger, and BOCompletedTime as a number", async () => {
    rig.sim.ledger.setShortcode(SHORTCODE, { balances: { 'Utility Account': 1_000_012_50 } });
    const answer = await rig.send('balance', rig.request('balance'));
    expect(answer.status).toBe(200);
    expect(await rig.result(0)).toEqual({
      Result: {
        ResultType: 0,
        ResultCode: 0,
        ResultDesc: 'The service request is processed successfully.',
        OriginatorConversationID: answer.body.OriginatorConversationID,
        ConversationID: answer.body.ConversationID,
        TransactionID: expect.stringMatching(/^[A-Z]{3}0000000$/),
        ResultParameters: {
          ResultParameter: [
            { Key: 'AccountBalance', Value: PAYBILL },
            { Key: 'BOCompletedTime', Value: expect.any(Number) },
          ],
        },
        ReferenceData: {
          ReferenceItem: {
            Key: 'QueueTimeoutURL',
            Value: 'https://internalsandbox.safaricom.co.ke/mpesa/abresults/v1/submit',
          },
        },
      },
    });
    const time = String((await rig.result(0)).Result.ResultParameters.ResultParameter[1].Value);
    expect(time).toMatch(/^20\d{12}$/);
  });

  it("gives a till's Merchant Account, known once set through the control API", async () => {
    await rig.sim.app.inject({
      method: 'PUT',
      url: '/_sim/ledger/shortcodes/373132',
      payload: { kind: 'till', balances: { 'Merchant Account': '99.95' } },
    });
    await rig.send('balance', rig.request('balance', { PartyA: 373132, IdentifierType: 2 }));
    expect((await rig.result(0)).Result.ResultParameters.ResultParameter[0]).toEqual({
      Key: 'AccountBalance',
      Value:
        'Merchant Account|KES|99.95|99.95|0.00|0.00&Charges Paid Account|KES|0.00|0.00|0.00|0.00',
    });
  });

  it('posts 21 with no parameters for a shortcode the ledger does not know (not the initiator’s own)', async () => {
    await rig.send('balance', rig.request('balance', { PartyA: '600000' }));
    expect((await rig.result(0)).Result).toEqual({
      ResultType: 0,
      ResultCode: 21,
      ResultDesc: 'The initiator is not allowed to initiate this request',
      OriginatorConversationID: expect.any(String),
      ConversationID: expect.any(String),
      TransactionID: expect.stringMatching(/^[A-Z]{3}0000000$/),
      ReferenceData: { ReferenceItem: expect.objectContaining({ Key: 'QueueTimeoutURL' }) },
    });
    expect(rig.sim.ledger.shortcodes().map((book) => book.shortcode)).toEqual([SHORTCODE]);
  });

  it.each([
    ['CommandID', { CommandID: 'Balance' }],
    ['PartyA', { PartyA: '254708374149' }],
    ['PartyA', { PartyA: undefined }],
    ['IdentifierType', { IdentifierType: '1' }],
    ['Remarks', { Remarks: '  ' }],
    ['QueueTimeOutURL', { QueueTimeOutURL: undefined }],
    ['ResultURL', { ResultURL: 'https://a b' }],
    ['SecurityCredential', { SecurityCredential: undefined }],
  ])('refuses a bad %s at once: %j', async (field, fields) => {
    const answer = await rig.send('balance', rig.request('balance', fields));
    expect(answer).toMatchObject({
      status: 400,
      body: { errorCode: '400.002.02', errorMessage: `Bad Request - Invalid ${field}` },
    });
  });

  it('takes CommandID with spaces around it, unless SIM_STRICT_LENGTHS', async () => {
    const answer = await rig.send(
      'balance',
      rig.request('balance', { CommandID: ' AccountBalance ' }),
    );
    expect(answer.status).toBe(200);
  });
});

describe('account balance in the shapes the settings choose', () => {
  it("writes the docs' strings with SIM_RESULT_STRINGS, and a failure's BOCompletedTime alone with SIM_RESULT_FAILURE_PARAMETER", async () => {
    const docs = await startApiRig({
      SIM_RESULT_STRINGS: 'true',
      SIM_RESULT_FAILURE_PARAMETER: 'true',
    });
    try {
      await docs.send('balance', docs.request('balance'));
      const { Result } = await docs.result(0);
      expect(Result).toMatchObject({ ResultType: '0', ResultCode: '0' });
      expect(Result.ResultParameters.ResultParameter[1].Value).toMatch(/^20\d{12}$/);
      await docs.send('balance', docs.request('balance', { PartyA: '600000' }));
      expect((await docs.result(1)).Result).toMatchObject({
        ResultCode: '21',
        ResultParameters: {
          ResultParameter: { Key: 'BOCompletedTime', Value: expect.stringMatching(/^20\d{12}$/) },
        },
      });
    } finally {
      await docs.close();
    }
  });
});
