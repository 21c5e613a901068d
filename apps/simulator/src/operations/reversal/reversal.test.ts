/**
 * Reversal as a client sees it (docs/daraja-protocol.md §M7): the money moved back, the Result's
 * parameters by name and type, each result code, the spelling Daraja insists on, the fault rules
 * on the Result, and a Result owed across a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readStateFile } from '../../state.ts';
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

const utility = (sim = rig.sim) => sim.ledger.shortcode(SHORTCODE).accounts['Utility Account'];

describe('POST /mpesa/reversal/v1/request', () => {
  it("moves an STK payment back to the payer's wallet and posts §M7's parameters", async () => {
    const receipt = await rig.stkPayment('254708374149', 200);
    const before = { utility: utility(), wallet: rig.sim.ledger.wallet('254708374149').balance };
    const answer = await rig.send(
      'reversal',
      rig.request('reversal', { TransactionID: receipt, Amount: 200 }),
    );
    expect(answer.status).toBe(200);
    const { Result } = await rig.result(0);
    const reversal = rig.sim.ledger.byReceipt(Result.TransactionID)!;
    expect(reversal).toMatchObject({ kind: 'reversal', reverses: receipt, amount: 200_00 });
    expect(utility()).toBe(before.utility! - 200_00);
    expect(rig.sim.ledger.wallet('254708374149').balance).toBe(before.wallet + 200_00);
    expect(Result).toEqual({
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
            Value: 'Utility Account|KES|1000000.00|1000000.00|0.00|0.00',
          },
          { Key: 'Amount', Value: 200 },
          { Key: 'TransCompletedTime', Value: expect.any(Number) },
          { Key: 'OriginalTransactionID', Value: receipt },
          { Key: 'Charge', Value: 0 },
          { Key: 'CreditPartyPublicName', Value: '254708374149 - John Doe' },
          { Key: 'DebitPartyPublicName', Value: `${SHORTCODE} - Sandbox Test Merchant` },
        ],
      },
      ReferenceData: {
        ReferenceItem: {
          Key: 'QueueTimeoutURL',
          Value: 'https://internalsandbox.safaricom.co.ke/mpesa/reversalresults/v1/submit',
        },
      },
    });
    expect(rig.sim.ledger.byOriginatorConversationId(answer.body.OriginatorConversationID)).toBe(
      reversal,
    );
  });

  it('posts R000001 for a payment already reversed, and moves nothing more', async () => {
    const receipt = await rig.stkPayment('254708374149', 50);
    await rig.send('reversal', rig.request('reversal', { TransactionID: receipt }));
    await rig.result(0);
    const after = utility();
    await rig.send('reversal', rig.request('reversal', { TransactionID: receipt }));
    expect((await rig.result(1)).Result).toEqual({
      ResultType: 0,
      ResultCode: 'R000001',
      ResultDesc: 'The transaction has already been reversed',
      OriginatorConversationID: expect.any(String),
      ConversationID: expect.any(String),
      TransactionID: expect.stringMatching(/^[A-Z]{3}0000000$/),
      ReferenceData: { ReferenceItem: expect.objectContaining({ Key: 'QueueTimeoutURL' }) },
    });
    expect(utility()).toBe(after);
  });

  it('posts R000002 for an unknown receipt, a B2C payout, and a payment ReceiverParty did not get', async () => {
    const payout = rig.sim.ledger.move({
      kind: 'b2c',
      amount: 100_00,
      from: { shortcode: SHORTCODE, account: 'Utility Account' },
      to: { msisdn: '254708374149' },
    });
    if (!payout.ok) throw new Error(payout.message);
    const paid = await rig.stkPayment('254708374149', 10);
    await rig.send('reversal', rig.request('reversal', { TransactionID: 'UAA123XYZ9' }));
    await rig.send(
      'reversal',
      rig.request('reversal', { TransactionID: payout.transaction.receipt }),
    );
    await rig.send(
      'reversal',
      rig.request('reversal', { TransactionID: paid, ReceiverParty: '600000' }),
    );
    for (const index of [0, 1, 2]) {
      expect((await rig.result(index)).Result).toMatchObject({
        ResultCode: 'R000002',
        ResultDesc: 'The OriginalTransactionID is invalid.',
      });
    }
    expect(rig.sim.ledger.byReceipt(paid)?.reversedBy).toBeNull();
  });

  it("posts 1 when the shortcode's account cannot pay it back", async () => {
    const receipt = await rig.stkPayment('254708374149', 300);
    rig.sim.ledger.setShortcode(SHORTCODE, { balances: { 'Utility Account': 100_00 } });
    await rig.send('reversal', rig.request('reversal', { TransactionID: receipt }));
    expect((await rig.result(0)).Result).toMatchObject({
      ResultCode: 1,
      ResultDesc: 'The balance is insufficient for the transaction.',
    });
    expect(utility()).toBe(100_00);
  });

  it('plays the magic numbers and a chosen next outcome of the payer', async () => {
    const magic = await rig.stkPayment('254700030003', 10);
    await rig.send('reversal', rig.request('reversal', { TransactionID: magic }));
    expect((await rig.result(0)).Result.ResultCode).toBe(1);
    const chosen = await rig.sim.app.inject({
      method: 'PUT',
      url: '/_sim/numbers/0711000111/next',
      payload: { api: 'reversal', outcome: 'R000001' },
    });
    expect(chosen.statusCode).toBe(200);
    const receipt = await rig.stkPayment('254711000111', 10);
    await rig.send('reversal', rig.request('reversal', { TransactionID: receipt }));
    expect((await rig.result(1)).Result.ResultCode).toBe('R000001');
    expect(rig.sim.ledger.byReceipt(receipt)?.reversedBy).toBeNull();
  });

  it.each([
    ['CommandID', { CommandID: 'Reversal' }],
    ['TransactionID', { TransactionID: undefined }],
    ['TransactionID', { TransactionID: 'UAA-123' }],
    ['Amount', { Amount: undefined }],
    ['Amount', { Amount: '0' }],
    ['Amount', { Amount: '1.005' }],
    ['ReceiverParty', { ReceiverParty: '2547' }],
    // The correct spelling is ignored: the field Daraja reads is missing.
    ['RecieverIdentifierType', { RecieverIdentifierType: undefined, ReceiverIdentifierType: '11' }],
    ['RecieverIdentifierType', { RecieverIdentifierType: '2' }],
    ['ResultURL', { ResultURL: undefined }],
    ['QueueTimeOutURL', { QueueTimeOutURL: 'ftp://x' }],
    ['Remarks', { Remarks: 'R' }],
    ['Initiator', { Initiator: '' }],
  ])('refuses a bad %s at once: %j', async (field, fields) => {
    const answer = await rig.send(
      'reversal',
      rig.request('reversal', { TransactionID: 'UAA1', ...fields }),
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

  it('takes RecieverIdentifierType 4, numbers for numeric fields, and Occassion', async () => {
    const answer = await rig.send(
      'reversal',
      rig.request('reversal', {
        TransactionID: 'UAA1',
        RecieverIdentifierType: 4,
        ReceiverParty: Number(SHORTCODE),
        Amount: 1.5,
        Occassion: 'refund',
      }),
    );
    expect(answer.status).toBe(200);
  });

  it('is named reversal by the fault rules: its request refused, its Result dropped', async () => {
    const set = (rules: unknown[]) =>
      rig.sim.app.inject({ method: 'PUT', url: '/_sim/faults', payload: { rules } });
    await set([{ operation: 'reversal', probability: 1, error: 'quota' }]);
    const refused = await rig.send('reversal', rig.request('reversal', { TransactionID: 'UAA1' }));
    expect(refused).toMatchObject({ status: 500, body: { errorCode: '500.003.03' } });
    await set([{ operation: 'callback', probability: 1, error: 'drop' }]);
    expect(
      (await rig.send('reversal', rig.request('reversal', { TransactionID: 'UAA1' }))).status,
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(rig.results.received).toEqual([]);
    await set([]);
  });
});

describe('a reversal whose Result is owed across a restart', () => {
  it('keeps it in SIM_STATE, and delivers it after the simulator starts again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-reversal-'));
    const file = path.join(dir, 'state.json');
    // A Result 10 minutes away: still owed when the simulator stops.
    const env = { SIM_STATE: file, SIM_CALLBACK_DELAY_MS: '600000' };
    const first = await startApiRig(env);
    const receipt = await first.stkPayment('254708374149', 70);
    const answer = await first.send(
      'reversal',
      first.request('reversal', { TransactionID: receipt }),
    );
    expect(answer.status).toBe(200);
    await first.sim.close(); // its receiver, the ResultURL, stays up
    expect(readStateFile(file)?.reversalResults).toMatchObject([
      { outcome: { resultCode: '0' }, state: 'waiting' },
    ]);
    const second = await startApiRig(env);
    try {
      expect(first.results.received.filter((r) => r.path === '/callback')).toEqual([]);
      const advanced = await second.sim.app.inject({
        method: 'POST',
        url: '/_sim/clock/advance',
        payload: { seconds: 600 },
      });
      expect(advanced.statusCode).toBe(200);
      const { Result } = await first.result(0);
      expect(Result).toMatchObject({ ResultCode: 0, ConversationID: answer.body.ConversationID });
      expect(second.sim.ledger.byReceipt(receipt)?.reversedBy).toBe(Result.TransactionID);
      await second.sim.app.inject({ method: 'GET', url: '/_sim/ledger' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(readStateFile(file)?.reversalResults).toEqual([]);
    } finally {
      await second.close();
      await first.results.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
