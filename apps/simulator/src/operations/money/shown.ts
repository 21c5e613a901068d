/**
 * The ledger as the control API and the event stream show it: amounts as Daraja writes them
 * (`"250000.00"`), where the ledger holds cents (money/amounts.ts).
 */
import { darajaAmount } from '../../money/amounts.ts';
import { balanceText, type Ledger } from '../../money/ledger.ts';
import type { ShortcodeBook, Transaction, Wallet } from '../../money/ledger.schema.ts';

export function shownShortcode(book: Readonly<ShortcodeBook>) {
  return {
    shortcode: book.shortcode,
    kind: book.kind,
    name: book.name,
    accounts: Object.fromEntries(
      Object.entries(book.accounts).map(([name, cents]) => [name, darajaAmount(cents)]),
    ),
    /** As account balance's Result will give it. */
    accountBalance: balanceText(book),
  };
}

export function shownWallet(wallet: Readonly<Wallet>) {
  return {
    msisdn: wallet.msisdn,
    name: wallet.name,
    registered: wallet.registered,
    balance: darajaAmount(wallet.balance),
    /** What it moved on its last day of use, for M-PESA's daily limits. */
    today: {
      date: wallet.day,
      received: darajaAmount(wallet.inToday),
      paid: darajaAmount(wallet.outToday),
    },
  };
}

export function shownTransaction(transaction: Readonly<Transaction>) {
  return {
    ...transaction,
    amount: darajaAmount(transaction.amount),
    charges: darajaAmount(transaction.charges),
  };
}

/**
 * A transaction as the event stream tells it, with both parties' names, so that the virtual
 * phone can write the customer's M-PESA message (public/money-sms.js).
 */
export function toldTransaction(ledger: Ledger, transaction: Readonly<Transaction>) {
  return {
    ...shownTransaction(transaction),
    debitName: ledger.nameOf(transaction.debit),
    creditName: ledger.nameOf(transaction.credit),
  };
}
