/**
 * The ledger's rules (docs/daraja-protocol.md §M12): money moves whole or not at all, each refusal
 * says why with Daraja's result code, amounts and balances are written as Daraja writes them, and
 * transactions are found by receipt and by OriginatorConversationID.
 */
import { describe, expect, it } from 'vitest';
import { SimClock } from '../clock.ts';
import { darajaAmount, toCents } from './amounts.ts';
import { Ledger } from './ledger.ts';
import type { MoveRequest } from './ledger.schema.ts';

const HOME = { shortcode: '174379', businessName: 'Sandbox Test Merchant' };
const newLedger = (clock = new SimClock()) => new Ledger(HOME, clock);

const JOHN = { msisdn: '254708374149' };
const B2C = { shortcode: '600992', account: 'Utility Account' } as const;
const HOME_UTILITY = { shortcode: '174379', account: 'Utility Account' } as const;

/** A payout of `shillings` from 600992's utility account to John Doe. */
const payout = (shillings: number, extra: Partial<MoveRequest> = {}): MoveRequest => ({
  kind: 'b2c',
  amount: shillings * 100,
  from: B2C,
  to: JOHN,
  ...extra,
});

describe('amounts', () => {
  it('reads shillings as whole cents, and refuses a third decimal or anything not an amount', () => {
    expect(toCents('700000.00')).toBe(70_000_000);
    expect(toCents(1500)).toBe(150_000);
    expect(toCents(' 12.5 ')).toBe(1250);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents('-1540.00')).toBe(-154_000);
    for (const bad of ['10.005', 10.005, 'ten', '', '1e3', 1e21, Number.NaN, '1.']) {
      expect(toCents(bad), String(bad)).toBeUndefined();
    }
  });

  it('writes cents as Daraja does: two decimals, a minus sign when below zero', () => {
    expect(darajaAmount(70_000_000)).toBe('700000.00');
    expect(darajaAmount(-154_000)).toBe('-1540.00');
    expect(darajaAmount(5)).toBe('0.05');
    expect(darajaAmount(0)).toBe('0.00');
  });
});

describe('accounts', () => {
  it('knows the simulator’s own shortcode from the start, as a paybill with its name', () => {
    const ledger = newLedger();
    expect(ledger.shortcodes()).toEqual([
      expect.objectContaining({
        shortcode: '174379',
        kind: 'paybill',
        name: 'Sandbox Test Merchant',
      }),
    ]);
    expect(ledger.balanceString('174379')).toBe(
      'Working Account|KES|500000.00|500000.00|0.00|0.00&' +
        'Float Account|KES|0.00|0.00|0.00|0.00&' +
        'Utility Account|KES|1000000.00|1000000.00|0.00|0.00&' +
        'Charges Paid Account|KES|0.00|0.00|0.00|0.00&' +
        'Organization Settlement Account|KES|0.00|0.00|0.00|0.00',
    );
  });

  it('knows a shortcode or a wallet from its first use, with the defaults', () => {
    const ledger = newLedger();
    expect(ledger.shortcode('600992')).toMatchObject({
      kind: 'paybill',
      name: 'Safaricom Daraja 992',
    });
    expect(ledger.balanceString('5550555')).toContain('Utility Account|KES|1000000.00');
    ledger.shortcode('123456', 'till');
    expect(ledger.balanceString('123456')).toBe(
      'Merchant Account|KES|0.00|0.00|0.00|0.00&Charges Paid Account|KES|0.00|0.00|0.00|0.00',
    );
    expect(ledger.wallet('254708374149')).toMatchObject({
      name: 'John Doe',
      registered: true,
      balance: 250_000_00,
    });
    expect(ledger.wallet('254705912645').name).toBe('NICHOLAS JOHN SONGOK');
    const stranger = ledger.wallet('254112345678').name;
    expect(stranger).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    expect(newLedger().wallet('254112345678').name).toBe(stranger);
    expect(() => ledger.wallet('0708374149')).toThrow(RangeError);
    expect(() => ledger.shortcode('12')).toThrow(RangeError);
  });

  it('sets balances by Daraja’s names, and refuses an account the kind lacks', () => {
    const ledger = newLedger();
    expect(
      ledger.setShortcode('600992', {
        balances: { 'Utility Account': 250_00, 'Charges Paid Account': -10_00 },
      }),
    ).toMatchObject({
      accounts: {
        'Utility Account': 250_00,
        'Charges Paid Account': -10_00,
        'Working Account': 500_000_00,
      },
    });
    expect(
      ledger.setShortcode('600992', { kind: 'till', balances: { 'Utility Account': 1 } }),
    ).toEqual({
      error:
        'A till has no Utility Account: its accounts are Merchant Account, Charges Paid Account',
    });
    expect(ledger.setShortcode('600992', { balances: { 'Working Account': -1 } })).toEqual({
      error: 'Working Account cannot be set below 0.00: only the Charges Paid Account can',
    });
    // Refused: nothing changed.
    expect(ledger.shortcode('600992').accounts['Utility Account']).toBe(250_00);
    expect(ledger.setShortcode('600992', { kind: 'till', name: 'Duka' })).toMatchObject({
      kind: 'till',
      name: 'Duka',
      accounts: { 'Merchant Account': 0, 'Charges Paid Account': 0 },
    });
  });
});

describe('moving money', () => {
  it('moves it whole and records it, found by receipt and by OriginatorConversationID', () => {
    const ledger = newLedger();
    const moved = ledger.move(
      payout(1000, { charges: 15_00, conversationId: 'AG_1', originatorConversationId: 'oc-1' }),
    );
    if (!moved.ok) throw new Error(moved.message);
    expect(moved.transaction).toEqual({
      receipt: expect.stringMatching(/^[A-Z][A-Z0-9]{9}$/),
      kind: 'b2c',
      status: 'Completed',
      amount: 1000_00,
      charges: 15_00,
      debit: B2C,
      credit: JOHN,
      conversationId: 'AG_1',
      originatorConversationId: 'oc-1',
      reference: null,
      at: expect.any(String),
      reverses: null,
      reversedBy: null,
    });
    expect(ledger.wallet(JOHN.msisdn)).toMatchObject({
      balance: 251_000_00,
      inToday: 1000_00,
      outToday: 0,
    });
    expect(ledger.balanceString('600992')).toContain(
      'Utility Account|KES|999000.00|999000.00|0.00|0.00',
    );
    expect(ledger.balanceString('600992')).toContain(
      'Charges Paid Account|KES|-15.00|-15.00|0.00|0.00',
    );
    expect(ledger.byReceipt(moved.transaction.receipt)).toEqual(moved.transaction);
    expect(ledger.byOriginatorConversationId('oc-1')).toEqual(moved.transaction);
    expect(ledger.byReceipt('NOPE000000')).toBeUndefined();
    expect(ledger.transactions()).toEqual([moved.transaction]);
  });

  it('refuses what the named account cannot pay, and changes nothing', () => {
    const ledger = newLedger();
    ledger.setShortcode('600992', { balances: { 'Utility Account': 500_00 } });
    const before = ledger.snapshot();
    expect(ledger.move(payout(501))).toEqual({
      ok: false,
      reason: 'insufficient-funds',
      resultCode: '1',
      message: 'The Utility Account of 600992 holds KES 500.00: KES 501.00 is needed.',
    });
    expect(ledger.snapshot()).toEqual({ ...before, wallets: [expect.objectContaining(JOHN)] });
    expect(ledger.wallet(JOHN.msisdn).balance).toBe(250_000_00);
    expect(ledger.transactions()).toEqual([]);
    // A wallet pays its charges on top of the amount.
    ledger.setWallet(JOHN.msisdn, { balance: 100_00 });
    const pay = { kind: 'c2b', amount: 100_00, from: JOHN, to: HOME_UTILITY } as const;
    expect(ledger.move({ ...pay, charges: 1 })).toMatchObject({ ok: false, resultCode: '1' });
    expect(ledger.move(pay)).toMatchObject({ ok: true });
    expect(ledger.wallet(JOHN.msisdn).balance).toBe(0);
  });

  it('keeps a wallet within M-PESA’s maximum balance and daily limits, a day in Nairobi', () => {
    const clock = new SimClock();
    const ledger = newLedger(clock);
    expect(ledger.move(payout(250_001))).toMatchObject({
      ok: false,
      reason: 'max-balance',
      resultCode: '8',
    });
    ledger.setWallet(JOHN.msisdn, { balance: 0 });
    expect(ledger.move(payout(250_000))).toMatchObject({ ok: true });
    expect(ledger.move(payout(250_000))).toMatchObject({ ok: true });
    ledger.setWallet(JOHN.msisdn, { balance: 0 });
    expect(ledger.move(payout(1))).toMatchObject({
      ok: false,
      reason: 'daily-limit',
      resultCode: '4',
    });
    const pay = (shillings: number) =>
      ledger.move({ kind: 'c2b', amount: shillings * 100, from: JOHN, to: HOME_UTILITY });
    ledger.setWallet(JOHN.msisdn, { balance: 500_000_00 });
    expect(pay(500_000)).toMatchObject({ ok: true });
    ledger.setWallet(JOHN.msisdn, { balance: 500_000_00 });
    expect(pay(1)).toMatchObject({
      ok: false,
      reason: 'daily-limit',
      message:
        'The wallet of 254708374149 has paid KES 500000.00 today: KES 1.00 more would pass the daily limit of KES 500000.00.',
    });
    clock.advance(24 * 3600_000);
    expect(pay(1)).toMatchObject({ ok: true });
    expect(ledger.wallet(JOHN.msisdn)).toMatchObject({ inToday: 0, outToday: 1_00 });
  });

  it('refuses a party that is not one, or an account its shortcode does not have', () => {
    const ledger = newLedger();
    const to = (side: MoveRequest['to']) =>
      ledger.move({ kind: 'c2b', amount: 100, from: JOHN, to: side });
    expect(to({ shortcode: '174379', account: 'Merchant Account' })).toMatchObject({
      ok: false,
      reason: 'no-such-account',
      resultCode: '2028',
      message: '174379 is a paybill: it has no Merchant Account.',
    });
    expect(to({ msisdn: '254812345678' })).toMatchObject({
      reason: 'invalid-party',
      resultCode: 'SFC_IC0003',
    });
    expect(to({ shortcode: '12', account: 'Utility Account' })).toMatchObject({
      reason: 'invalid-party',
    });
    // A shortcode first paid into its Merchant Account is a till.
    expect(to({ shortcode: '5550555', account: 'Merchant Account' })).toMatchObject({ ok: true });
    expect(ledger.shortcode('5550555').kind).toBe('till');
    expect(() => ledger.move(payout(0))).toThrow(RangeError);
    expect(() => ledger.move({ ...payout(1), amount: 1.5 })).toThrow(RangeError);
  });

  it('records a transaction that moved nothing, which cannot be reversed', () => {
    const ledger = newLedger();
    const declined = ledger.record(payout(10, { originatorConversationId: 'oc-2' }), 'Declined');
    expect(declined).toMatchObject({ status: 'Declined', amount: 10_00 });
    expect(ledger.byOriginatorConversationId('oc-2')).toEqual(declined);
    expect(ledger.wallet(JOHN.msisdn).balance).toBe(250_000_00);
    expect(ledger.reverse(declined.receipt)).toMatchObject({ ok: false, resultCode: 'R000002' });
  });
});

describe('reversing', () => {
  it('moves a payment back once, linking the two, and refuses an unknown or reversed receipt', () => {
    const ledger = newLedger();
    const paid = ledger.move({ kind: 'c2b', amount: 200_00, from: JOHN, to: HOME_UTILITY });
    if (!paid.ok) throw new Error(paid.message);
    const reversed = ledger.reverse(paid.transaction.receipt, { originatorConversationId: 'oc-r' });
    if (!reversed.ok) throw new Error(reversed.message);
    expect(reversed.transaction).toMatchObject({
      kind: 'reversal',
      amount: 200_00,
      debit: HOME_UTILITY,
      credit: JOHN,
      reverses: paid.transaction.receipt,
    });
    expect(ledger.byReceipt(paid.transaction.receipt)?.reversedBy).toBe(
      reversed.transaction.receipt,
    );
    expect(ledger.wallet(JOHN.msisdn).balance).toBe(250_000_00);
    expect(ledger.shortcode('174379').accounts['Utility Account']).toBe(1_000_000_00);
    expect(ledger.reverse(paid.transaction.receipt)).toMatchObject({
      reason: 'already-reversed',
      resultCode: 'R000001',
    });
    expect(ledger.reverse('NOPE000000')).toMatchObject({
      reason: 'unknown-transaction',
      resultCode: 'R000002',
    });
    expect(ledger.reverse(reversed.transaction.receipt)).toMatchObject({
      reason: 'not-reversible',
    });
  });

  it('is refused when the business cannot pay it back, and leaves the payment unreversed', () => {
    const ledger = newLedger();
    const paid = ledger.move({ kind: 'c2b', amount: 200_00, from: JOHN, to: HOME_UTILITY });
    if (!paid.ok) throw new Error(paid.message);
    ledger.setShortcode('174379', { balances: { 'Utility Account': 100_00 } });
    expect(ledger.reverse(paid.transaction.receipt)).toMatchObject({ ok: false, resultCode: '1' });
    expect(ledger.byReceipt(paid.transaction.receipt)?.reversedBy).toBeNull();
  });
});

describe('keeping and forgetting', () => {
  it('restores what it snapshot, and the snapshot is a copy', () => {
    const ledger = newLedger();
    const paid = ledger.move(payout(10, { originatorConversationId: 'oc-3' }));
    const saved = ledger.snapshot();
    ledger.move(payout(20));
    const again = newLedger();
    again.restore(saved);
    expect(again.snapshot()).toEqual(saved);
    expect(again.byOriginatorConversationId('oc-3')).toEqual(paid.ok && paid.transaction);
    expect(again.wallet(JOHN.msisdn).balance).toBe(250_010_00);
  });

  it('tells each change, and forgets all but its own shortcode on reset', () => {
    const ledger = newLedger();
    const events: string[] = [];
    ledger.on('change', (event) => events.push(event.type));
    ledger.move(payout(10));
    expect(events).toEqual(['account', 'account', 'transaction']);
    ledger.reset();
    expect(events.at(-1)).toBe('reset');
    expect(ledger.snapshot()).toEqual({
      shortcodes: [expect.objectContaining({ shortcode: '174379' })],
      wallets: [],
      transactions: [],
    });
  });
});
