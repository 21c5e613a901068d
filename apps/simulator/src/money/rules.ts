/**
 * What may move (docs/daraja-protocol.md §M12): an account pays only what it holds (the Charges
 * Paid Account excepted: it counts charges as a negative balance), and a wallet keeps M-PESA's
 * limits on a customer (§M4.1): at most 500,000.00 held, and 500,000.00 moved each way in a day.
 * The ledger checks both sides before it changes either, so that a movement is whole or nothing.
 * A shortcode's accounts keep the simulator's own bounds (SHORTCODE_MAX_BALANCE), so that every sum
 * stays exact.
 */
import {
  CHARGES_ACCOUNT,
  SHORTCODE_MAX_BALANCE,
  WALLET_DAILY_LIMIT,
  WALLET_MAX_BALANCE,
  type AccountName,
} from './accounts.ts';
import { darajaAmount, type Cents } from './amounts.ts';
import { refusal, type Refusal, type ShortcodeBook, type Wallet } from './ledger.schema.ts';

/** One side of a movement, found: what it holds, and how to change it. */
export interface Party {
  /** `The wallet of 254708374149`, `The Utility Account of 600992`. */
  label: string;
  /** What it holds now. */
  balance: Cents;
  /** A wallet's; undefined for a shortcode's account. */
  wallet?: Wallet;
  /** The Charges Paid Account pays what it does not hold: its balance counts charges paid. */
  mayGoNegative: boolean;
  /** A shortcode's account: what its Charges Paid Account holds, where its charges go. */
  chargesBalance?: Cents;
  /** Adds `amount` (negative: pays it), and `charges` (negative: pays them), on `day`. */
  add(amount: Cents, charges: Cents, day: string): void;
}

export function walletParty(wallet: Wallet): Party {
  return {
    label: `The wallet of ${wallet.msisdn}`,
    balance: wallet.balance,
    wallet,
    mayGoNegative: false,
    add(amount, charges, day) {
      if (wallet.day !== day) Object.assign(wallet, { day, inToday: 0, outToday: 0 });
      wallet.balance += amount + charges;
      if (amount < 0) wallet.outToday -= amount;
      else wallet.inToday += amount;
    },
  };
}

export function accountParty(book: ShortcodeBook, account: AccountName): Party {
  return {
    label: `The ${account} of ${book.shortcode}`,
    balance: book.accounts[account] ?? 0,
    mayGoNegative: account === CHARGES_ACCOUNT,
    chargesBalance: book.accounts[CHARGES_ACCOUNT] ?? 0,
    add(amount, charges) {
      book.accounts[account] = (book.accounts[account] ?? 0) + amount;
      if (charges !== 0)
        book.accounts[CHARGES_ACCOUNT] = (book.accounts[CHARGES_ACCOUNT] ?? 0) + charges;
    },
  };
}

/** What a wallet has moved today in one direction (nothing, on a new day). */
const movedToday = (wallet: Wallet, day: string, way: 'inToday' | 'outToday') =>
  wallet.day === day ? wallet[way] : 0;

const kes = (cents: Cents) => `KES ${darajaAmount(cents)}`;

/** Why the debit side cannot pay `amount` (and, from a wallet, `charges` on top), if it cannot. */
export function refuseDebit(
  party: Party,
  amount: Cents,
  charges: Cents,
  day: string,
): Refusal | undefined {
  const wallet = party.wallet;
  const needed = wallet ? amount + charges : amount;
  if (party.balance < needed && !party.mayGoNegative) {
    return refusal(
      'insufficient-funds',
      `${party.label} holds ${kes(party.balance)}: ${kes(needed)} is needed.`,
    );
  }
  // The Charges Paid Account goes below zero, but not past the simulator's bound.
  const lowest = -SHORTCODE_MAX_BALANCE;
  const charged = wallet ? undefined : party.chargesBalance;
  if (
    (party.mayGoNegative && party.balance - needed < lowest) ||
    (charged !== undefined && charged - charges < lowest)
  ) {
    return refusal(
      'insufficient-funds',
      `${party.label} cannot pay ${kes(needed)} (charges ${kes(charges)}): its shortcode's ${CHARGES_ACCOUNT} would fall below the simulator's lowest, ${kes(lowest)}.`,
    );
  }
  if (wallet && movedToday(wallet, day, 'outToday') + amount > WALLET_DAILY_LIMIT) {
    return refusal(
      'daily-limit',
      `${party.label} has paid ${kes(movedToday(wallet, day, 'outToday'))} today: ${kes(amount)} more would pass the daily limit of ${kes(WALLET_DAILY_LIMIT)}.`,
    );
  }
  return undefined;
}

/** Why the credit side cannot take `amount`, if it cannot: a wallet's limits, or the simulator's bound. */
export function refuseCredit(party: Party, amount: Cents, day: string): Refusal | undefined {
  const wallet = party.wallet;
  if (!wallet) {
    return party.balance + amount > SHORTCODE_MAX_BALANCE
      ? refusal(
          'max-balance',
          `${party.label} holds ${kes(party.balance)}: ${kes(amount)} more would pass the most the simulator lets an account hold, ${kes(SHORTCODE_MAX_BALANCE)}.`,
        )
      : undefined;
  }
  if (wallet.balance + amount > WALLET_MAX_BALANCE) {
    return refusal(
      'max-balance',
      `${party.label} holds ${kes(wallet.balance)}: ${kes(amount)} more would pass the maximum balance of ${kes(WALLET_MAX_BALANCE)}.`,
    );
  }
  if (movedToday(wallet, day, 'inToday') + amount > WALLET_DAILY_LIMIT) {
    return refusal(
      'daily-limit',
      `${party.label} has received ${kes(movedToday(wallet, day, 'inToday'))} today: ${kes(amount)} more would pass the daily limit of ${kes(WALLET_DAILY_LIMIT)}.`,
    );
  }
  return undefined;
}
