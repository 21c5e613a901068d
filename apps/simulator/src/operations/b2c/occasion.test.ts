/**
 * an empty `Occassion` lets any `Occasion` through B2C and B2B (b2c/fields.ts
 * `occasion`: `body.Occassion ?? body.Occasion` keeps the "" and never looks at `Occasion`), while
 * the Result APIs' FieldReader.occasion (results/request-fields.ts) counts "" as absent and checks
 * `Occasion`. A 101-character Occasion is refused by transaction status and reversal, taken by B2C.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { payout, startPaymentRig, V3, type PaymentRig } from '../../test/payments.ts';

let rig: PaymentRig;
beforeEach(async () => {
  rig = await startPaymentRig();
});
afterEach(async () => {
  await rig.close();
});

const TOO_LONG = 'x'.repeat(101);

describe('Occasion over 100 characters next to an empty Occassion', () => {
  it('is refused by B2C, as when sent alone', async () => {
    const alone = await rig.post(V3, payout(rig, { Occassion: undefined, Occasion: TOO_LONG }));
    expect(alone.status).toBe(400);
    const withEmpty = await rig.post(V3, payout(rig, { Occassion: '', Occasion: TOO_LONG }));
    expect(withEmpty.status).toBe(400);
    expect(withEmpty.body.errorCode).toBe('400.002.02');
  });

  it('is refused by B2B', async () => {
    const answer = await rig.post('/mpesa/b2b/v1/paymentrequest', {
      Initiator: 'testapi',
      SecurityCredential: rig.credential,
      CommandID: 'BusinessPayBill',
      SenderIdentifierType: '4',
      RecieverIdentifierType: '4',
      Amount: 10,
      PartyA: '600992',
      PartyB: '600000',
      AccountReference: '353353',
      Remarks: 'ok',
      QueueTimeOutURL: 'https://example.com/t',
      ResultURL: rig.results.url,
      Occassion: '',
      Occasion: TOO_LONG,
    });
    expect(answer.status).toBe(400);
  });
});
