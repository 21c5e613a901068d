/**
 * The money across a chain of Daraja APIs (docs/daraja-protocol.md §M12): an STK push paid in, a
 * C2B payment in, a B2C payout out, the C2B payment reversed, then account balance and transaction
 * status of each; the figures add up to the cent at every step. C2B and B2C are not operations yet
 * on this branch: their money is moved with `ledger.move`, as their operations will move it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORTCODE } from './test/harness.ts';
import { startApiRig, type ApiRig } from './test/result-apis.ts';

let rig: ApiRig;
beforeAll(async () => {
  rig = await startApiRig();
});
afterAll(() => rig.close());

const PAYER = '254708374149';
const PAYEE = '254705912645';
const accounts = () => rig.sim.ledger.shortcode(SHORTCODE).accounts;
const wallet = (msisdn: string) => rig.sim.ledger.wallet(msisdn).balance;
let results = 0;
const nextResult = async () => (await rig.result(results++)).Result;

/** Each parameter's Value by Key (the first of a repeated one). */
const values = (Result: {
  ResultParameters: { ResultParameter: { Key: string; Value?: unknown }[] };
}) =>
  Object.fromEntries(
    Result.ResultParameters.ResultParameter.toReversed().map(({ Key, Value }) => [Key, Value]),
  );

describe('STK in, C2B in, B2C out, a reversal, balance and status', () => {
  it('adds up to the cent at every step', async () => {
    const start = {
      utility: accounts()['Utility Account']!,
      payer: wallet(PAYER),
      payee: wallet(PAYEE),
    };

    const stk = await rig.stkPayment(PAYER, 1_000);
    expect(accounts()['Utility Account']).toBe(start.utility + 1_000_00);
    expect(wallet(PAYER)).toBe(start.payer - 1_000_00);

    const c2b = rig.sim.ledger.move({
      kind: 'c2b',
      amount: 250_75,
      from: { msisdn: PAYER },
      to: { shortcode: SHORTCODE, account: 'Utility Account' },
      reference: 'INV-7',
    });
    if (!c2b.ok) throw new Error(c2b.message);
    expect(accounts()['Utility Account']).toBe(start.utility + 1_250_75);
    expect(wallet(PAYER)).toBe(start.payer - 1_250_75);

    const b2c = rig.sim.ledger.move({
      kind: 'b2c',
      amount: 500_00,
      charges: 15_27,
      from: { shortcode: SHORTCODE, account: 'Utility Account' },
      to: { msisdn: PAYEE },
      originatorConversationId: 'chain-b2c-1',
    });
    if (!b2c.ok) throw new Error(b2c.message);
    expect(accounts()['Utility Account']).toBe(start.utility + 750_75);
    expect(accounts()['Charges Paid Account']).toBe(-15_27);
    expect(wallet(PAYEE)).toBe(start.payee + 500_00);

    await rig.send(
      'reversal',
      rig.request('reversal', { TransactionID: c2b.transaction.receipt, Amount: '250.75' }),
    );
    const reversed = await nextResult();
    expect(values(reversed)).toMatchObject({
      Amount: 250.75,
      DebitAccountBalance: `Utility Account|KES|${(start.utility + 500_00) / 100}.00|${(start.utility + 500_00) / 100}.00|0.00|0.00`,
    });
    expect(accounts()['Utility Account']).toBe(start.utility + 500_00);
    expect(wallet(PAYER)).toBe(start.payer - 1_000_00);

    await rig.send('balance', rig.request('balance'));
    const balance = String(values(await nextResult()).AccountBalance);
    const utility = ((start.utility + 500_00) / 100).toFixed(2);
    expect(balance).toContain(`&Utility Account|KES|${utility}|${utility}|0.00|0.00&`);
    expect(balance).toContain('&Charges Paid Account|KES|-15.27|-15.27|0.00|0.00&');

    const asked = [
      [{ TransactionID: stk }, stk, '1000', 'Completed'],
      [{ TransactionID: c2b.transaction.receipt }, c2b.transaction.receipt, '250.75', 'Completed'],
      [{ OriginalConversationID: 'chain-b2c-1' }, b2c.transaction.receipt, '500', 'Completed'],
      [{ TransactionID: reversed.TransactionID }, reversed.TransactionID, '250.75', 'Completed'],
    ] as const;
    for (const [query, receipt, amount, state] of asked) {
      await rig.send('status', rig.request('status', query));
      expect(values(await nextResult())).toMatchObject({
        ReceiptNo: receipt,
        Amount: amount,
        TransactionStatus: state,
      });
    }
    expect(rig.sim.ledger.byReceipt(c2b.transaction.receipt)?.reversedBy).toBe(
      reversed.TransactionID,
    );
  });
});
