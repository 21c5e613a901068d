/**
 * The money across a chain of Daraja APIs, each called as a client calls it
 * (docs/daraja-protocol.md §M12): a customer pays the shortcode by STK push and by C2B, the
 * shortcode pays another customer by B2C, the C2B payment is reversed, and account balance and
 * transaction status tell what happened. At every step the wallets and the shortcode's accounts
 * (utility, working, charges) are exactly what the step should have made them, to the cent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { B2C_CHARGE } from './operations/b2c/payout.ts';
import { c2bClient, payment, registration, startMerchant, type Merchant } from './test/c2b.ts';
import { call, pushBody, SHORTCODE, token } from './test/harness.ts';
import { startApiRig, type ApiRig } from './test/result-apis.ts';

let rig: ApiRig;
let merchant: Merchant;
beforeAll(async () => {
  rig = await startApiRig();
  merchant = await startMerchant();
});
afterAll(async () => {
  await rig.close();
  await merchant.close();
});

/** John Doe pays the shortcode; Nicholas is paid by it. */
const PAYER = '254708374149';
const PAYEE = '254705912645';

/** Every figure the chain moves, in cents, as the ledger holds it. */
function figures() {
  const accounts = rig.sim.ledger.shortcode(SHORTCODE).accounts;
  return {
    utility: accounts['Utility Account']!,
    working: accounts['Working Account']!,
    charges: accounts['Charges Paid Account']!,
    payer: rig.sim.ledger.wallet(PAYER).balance,
    payee: rig.sim.ledger.wallet(PAYEE).balance,
  };
}
type Figures = ReturnType<typeof figures>;
let start: Figures;
/** What the figures should be: the start, moved by these many cents. */
const startPlus = (moved: Partial<Figures>): Figures => {
  const expected = { ...start };
  for (const [key, cents] of Object.entries(moved)) expected[key as keyof Figures] += cents;
  return expected;
};
/** Shillings with two decimals, as Daraja writes an account's balance. */
const kes = (cents: number) => (cents / 100).toFixed(2);

let results = 0;
/** The next Result posted to the rig's ResultURL. */
const nextResult = async () => (await rig.result(results++)).Result;
/** Each Result parameter's Value by Key (the first of a repeated one). */
const values = (Result: {
  ResultParameters: { ResultParameter: { Key: string; Value?: unknown }[] };
}) =>
  Object.fromEntries(
    Result.ResultParameters.ResultParameter.toReversed().map(({ Key, Value }) => [Key, Value]),
  );

/** The customer approves an STK push on the virtual phone; the callback's receipt. */
async function payByStkPush(amount: number): Promise<string> {
  const push = await call(`${rig.sim.url}/mpesa/stkpush/v1/processrequest`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${await token(rig.sim.url)}`,
      'Content-Type': 'application/json',
    },
    body: pushBody({ Amount: amount, PartyA: PAYER, PhoneNumber: PAYER }, `${rig.results.url}/stk`),
  });
  expect(push.body.ResponseCode).toBe('0');
  const pin = await call(`${rig.sim.url}/_sim/prompts/${push.body.CheckoutRequestID}/pin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: { pin: '1234' },
  });
  expect(pin.status).toBe(200);
  const stkCallbacks = () => rig.results.received.filter((each) => each.path === '/callback/stk');
  await expect.poll(() => stkCallbacks().length).toBe(1);
  const callback = stkCallbacks()[0]!.body.Body.stkCallback;
  expect(callback.ResultCode).toBe(0);
  const items = Object.fromEntries(
    callback.CallbackMetadata.Item.map((item: { Name: string; Value: unknown }) => [
      item.Name,
      item.Value,
    ]),
  );
  expect(items).toMatchObject({ Amount: amount, PhoneNumber: Number(PAYER) });
  return items.MpesaReceiptNumber;
}

describe('STK in, C2B in, B2C out, a reversal, balance and status', () => {
  it('adds up to the cent at every step', async () => {
    start = figures();
    expect(start.charges).toBe(0);

    // 1. John Doe pays KES 1,000 by STK push: from his wallet to the utility account.
    const stk = await payByStkPush(1_000);
    expect(figures()).toEqual(startPlus({ utility: 1_000_00, payer: -1_000_00 }));

    // 2. He pays KES 250 more by C2B, to the URLs the shortcode registered through v2.
    const c2b = c2bClient(rig.sim);
    const registered = await c2b.register(registration(merchant, { ShortCode: SHORTCODE }), 'v2');
    expect(registered.body.ResponseCode).toBe('0');
    const simulated = await c2b.simulate(
      payment({ ShortCode: SHORTCODE, Amount: 250, Msisdn: PAYER, BillRefNumber: 'INV-7' }),
      'v2',
    );
    expect(simulated.body.ResponseCode).toBe('0');
    await merchant.waitFor(1);
    const [confirmation] = merchant.of('confirmation');
    expect(confirmation).toMatchObject({
      TransactionType: 'Pay Bill',
      TransAmount: '250.00',
      BusinessShortCode: SHORTCODE,
      BillRefNumber: 'INV-7',
      OrgAccountBalance: kes(start.utility + 1_250_00),
      MSISDN: '2547 ***** 149',
    });
    const c2bReceipt: string = confirmation.TransID;
    expect(figures()).toEqual(startPlus({ utility: 1_250_00, payer: -1_250_00 }));

    // 3. The shortcode pays Nicholas KES 500 by B2C: from the utility account, KES 22.40 charged.
    const b2c = await call(`${rig.sim.url}/mpesa/b2c/v3/paymentrequest`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${await token(rig.sim.url)}`,
        'Content-Type': 'application/json',
      },
      body: {
        OriginatorConversationID: 'chain-b2c-1',
        InitiatorName: 'testapi',
        SecurityCredential: rig.credential,
        CommandID: 'BusinessPayment',
        Amount: 500,
        PartyA: SHORTCODE,
        PartyB: PAYEE,
        Remarks: 'Refund',
        QueueTimeOutURL: `${rig.results.url}/timeout`,
        ResultURL: rig.results.url,
        Occassion: 'Chain',
      },
    });
    expect(b2c.body).toMatchObject({ ResponseCode: '0', OriginatorConversationID: 'chain-b2c-1' });
    const paidOut = await nextResult();
    expect(paidOut).toMatchObject({ ResultCode: 0, ConversationID: b2c.body.ConversationID });
    expect(B2C_CHARGE).toBe(22_40);
    expect(figures()).toEqual(
      startPlus({ utility: 750_00, charges: -22_40, payer: -1_250_00, payee: 500_00 }),
    );
    expect(values(paidOut)).toMatchObject({
      TransactionAmount: 500,
      TransactionReceipt: paidOut.TransactionID,
      B2CUtilityAccountAvailableFunds: (start.utility + 750_00) / 100,
      B2CWorkingAccountAvailableFunds: start.working / 100,
      B2CChargesPaidAccountAvailableFunds: -22.4,
    });

    // 4. The C2B payment is reversed: KES 250 back from the utility account to John Doe.
    await rig.send(
      'reversal',
      rig.request('reversal', { TransactionID: c2bReceipt, Amount: '250' }),
    );
    const reversed = await nextResult();
    const afterReversal = kes(start.utility + 500_00);
    expect(values(reversed)).toMatchObject({
      Amount: 250,
      OriginalTransactionID: c2bReceipt,
      DebitAccountBalance: `Utility Account|KES|${afterReversal}|${afterReversal}|0.00|0.00`,
    });
    expect(figures()).toEqual(
      startPlus({ utility: 500_00, charges: -22_40, payer: -1_000_00, payee: 500_00 }),
    );

    // 5. Account balance says the same, in Daraja's `&`/`|` string.
    await rig.send('balance', rig.request('balance'));
    const balance = String(values(await nextResult()).AccountBalance);
    const working = kes(start.working);
    expect(balance).toContain(`Working Account|KES|${working}|${working}|0.00|0.00&`);
    expect(balance).toContain(`&Utility Account|KES|${afterReversal}|${afterReversal}|0.00|0.00&`);
    expect(balance).toContain('&Charges Paid Account|KES|-22.40|-22.40|0.00|0.00&');

    // 6. Transaction status finds each of the four, by receipt or by OriginatorConversationID.
    const asked = [
      [{ TransactionID: stk }, stk, '1000'],
      [{ TransactionID: c2bReceipt }, c2bReceipt, '250'],
      [{ OriginalConversationID: 'chain-b2c-1' }, paidOut.TransactionID, '500'],
      [{ TransactionID: reversed.TransactionID }, reversed.TransactionID, '250'],
    ] as const;
    for (const [query, receipt, amount] of asked) {
      await rig.send('status', rig.request('status', query));
      expect(values(await nextResult())).toMatchObject({
        ReceiptNo: receipt,
        Amount: amount,
        TransactionStatus: 'Completed',
      });
    }
    expect(rig.sim.ledger.byReceipt(c2bReceipt)?.reversedBy).toBe(reversed.TransactionID);
    // Asking moved nothing.
    expect(figures()).toEqual(
      startPlus({ utility: 500_00, charges: -22_40, payer: -1_000_00, payee: 500_00 }),
    );
  });
});
