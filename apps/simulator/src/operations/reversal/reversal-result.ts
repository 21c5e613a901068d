/**
 * A reversal's Result parameters, as Daraja's success sample names and types them
 * (docs/daraja-protocol.md §M7): `DebitAccountBalance` a string, `Amount`, `TransCompletedTime`
 * and `Charge` numbers.
 */
import { eatNumber } from '../../ids.ts';
import { darajaAmount } from '../../money/amounts.ts';
import type { Ledger } from '../../money/ledger.ts';
import type { Transaction } from '../../money/ledger.schema.ts';
import { publicName } from '../../results/parties.ts';
import type { ResultItem } from '../../results/result.ts';

/** The paying account after the reversal, as one account of the balance string (§M6). */
function accountBalance(ledger: Ledger, side: Transaction['debit']): string {
  if ('msisdn' in side) return '';
  const cents = ledger.shortcode(side.shortcode).accounts[side.account] ?? 0;
  return `${side.account}|KES|${darajaAmount(cents)}|${darajaAmount(cents)}|0.00|0.00`;
}

export function reversalParameters(ledger: Ledger, reversal: Transaction): ResultItem[] {
  return [
    { Key: 'DebitAccountBalance', Value: accountBalance(ledger, reversal.debit) },
    { Key: 'Amount', Value: reversal.amount / 100 },
    { Key: 'TransCompletedTime', Value: eatNumber(new Date(reversal.at)) },
    { Key: 'OriginalTransactionID', Value: reversal.reverses ?? '' },
    { Key: 'Charge', Value: 0 },
    { Key: 'CreditPartyPublicName', Value: publicName(ledger, reversal.credit) },
    { Key: 'DebitPartyPublicName', Value: publicName(ledger, reversal.debit) },
  ];
}
