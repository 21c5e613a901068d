/**
 * How the Results name the parties of a transaction (docs/daraja-protocol.md §M5, §M7): a
 * shortcode or a customer's number, a hyphen, and the name M-PESA has for it
 * (`600992 - Safaricom Daraja 992`, `254705912645 - NICHOLAS JOHN SONGOK`), from the ledger.
 */
import type { Ledger } from '../money/ledger.ts';
import type { Side } from '../money/ledger.schema.ts';

export function publicName(ledger: Ledger, side: Side): string {
  if ('msisdn' in side) return `${side.msisdn} - ${ledger.wallet(side.msisdn).name}`;
  return `${side.shortcode} - ${ledger.shortcode(side.shortcode).name}`;
}

/** The customer's number of a transaction, if one of its sides is a wallet. */
export function customerOf(transaction: { debit: Side; credit: Side }): string | undefined {
  for (const side of [transaction.debit, transaction.credit]) {
    if ('msisdn' in side) return side.msisdn;
  }
  return undefined;
}

/** Whether `party` (a shortcode or a customer's number) is one side of the transaction. */
export function isPartyTo(party: string, transaction: { debit: Side; credit: Side }): boolean {
  return [transaction.debit, transaction.credit].some((side) =>
    'msisdn' in side ? side.msisdn === party : side.shortcode === party,
  );
}
