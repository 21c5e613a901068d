/**
 * The simulated accounts and what a new one holds (docs/daraja-protocol.md §M12): a business
 * shortcode's accounts, by Daraja's names, and a customer's wallet. A shortcode or a wallet is
 * known from its first use, with these defaults; the control API sets them otherwise.
 */
import { z } from 'zod';
import type { Cents } from './amounts.ts';

/** A paybill (or B2C shortcode) and a till have different accounts (§M6). */
export const ShortcodeKindSchema = z.enum(['paybill', 'till']);
export type ShortcodeKind = z.infer<typeof ShortcodeKindSchema>;

/** Each account a shortcode can have, by the name Daraja gives it in a balance. */
export const AccountNameSchema = z.enum([
  'Working Account',
  'Float Account',
  'Utility Account',
  'Charges Paid Account',
  'Organization Settlement Account',
  'Merchant Account',
]);
export type AccountName = z.infer<typeof AccountNameSchema>;

/**
 * Each kind's accounts, in the order Daraja lists them in a balance, with what a new shortcode
 * holds: a paybill KES 500,000.00 in its working account and 1,000,000.00 in its utility account
 * (where customers' payments arrive and from which B2C pays, §M4.1), a till nothing. A till's
 * charges need an account too, so it has a Charges Paid Account beside its Merchant Account.
 */
export const DEFAULT_ACCOUNTS: Record<ShortcodeKind, Partial<Record<AccountName, Cents>>> = {
  paybill: {
    'Working Account': 500_000_00,
    'Float Account': 0,
    'Utility Account': 1_000_000_00,
    'Charges Paid Account': 0,
    'Organization Settlement Account': 0,
  },
  till: { 'Merchant Account': 0, 'Charges Paid Account': 0 },
};

/** Where customers' payments to a shortcode arrive (C2B, STK push): its utility or merchant account. */
export function collectionAccount(kind: ShortcodeKind): AccountName {
  return kind === 'till' ? 'Merchant Account' : 'Utility Account';
}

/**
 * The one account that goes below zero: it counts what the shortcode has paid in charges, as the
 * negative balance Daraja shows (`Charges Paid Account|KES|-1540.00|…`, §M6).
 */
export const CHARGES_ACCOUNT: AccountName = 'Charges Paid Account';

/** A shortcode's name in results (`600992 - Safaricom Daraja 992`, §M2.5) unless one is set. */
export const defaultShortcodeName = (shortcode: string) =>
  `Safaricom Daraja ${shortcode.slice(-3)}`;

/** A business shortcode: 5 to 7 digits, as the simulator's own (SIM_SHORTCODE) and STK push take. */
export const SHORTCODE = /^[0-9]{5,7}$/;
/** A customer's number, as Daraja writes it: 12 digits, 2547… or 2541… (§7). */
export const MSISDN = /^254[17][0-9]{8}$/;

/**
 * What a new wallet holds: KES 250,000.00, enough for the largest STK push (250,000) and for a
 * B2C payout as large before the wallet reaches M-PESA's maximum balance.
 */
export const DEFAULT_WALLET_BALANCE: Cents = 250_000_00;
/**
 * The most a shortcode's account may hold, and the lowest its Charges Paid Account may fall to: KES
 * 1,000,000,000,000.00 (a trillion shillings, far above any business's float). The limit is the
 * simulator's own, not M-PESA's (docs/daraja-protocol.md §M12): it keeps every balance, and every
 * sum of a balance and an amount, a whole number of cents that JavaScript counts exactly (below
 * Number.MAX_SAFE_INTEGER, about 90 trillion shillings), so that no cent is made up or lost.
 */
export const SHORTCODE_MAX_BALANCE: Cents = 1_000_000_000_000_00;

/** M-PESA's limits on a customer (§M4.1): the most a wallet holds, and moves in a day each way. */
export const WALLET_MAX_BALANCE: Cents = 500_000_00;
export const WALLET_DAILY_LIMIT: Cents = 500_000_00;

/** The sandbox's known customers (§M2.5), by the names Daraja's results give them. */
const PERSONAS: Record<string, string> = {
  '254708374149': 'John Doe',
  '254705912645': 'NICHOLAS JOHN SONGOK',
};
const FIRST = [
  'Jane',
  'Peter',
  'Mary',
  'James',
  'Grace',
  'Brian',
  'Faith',
  'David',
  'Amina',
  'Kevin',
];
const LAST = ['Wanjiru', 'Otieno', 'Kamau', 'Achieng', 'Mwangi', 'Njeri', 'Kiprop', 'Mutua'];

/**
 * A customer's name: a sandbox persona's, or a plain one made from the number, so that the same
 * number has the same name after a reset or on another machine.
 */
export function customerName(msisdn: string): string {
  const persona = PERSONAS[msisdn];
  if (persona) return persona;
  const digits = [...msisdn].map(Number);
  const sum = digits.reduce((total, digit, index) => total + digit * (index + 1), 0);
  return `${FIRST[sum % FIRST.length]} ${LAST[Number(msisdn.slice(-2)) % LAST.length]}`;
}
