/**
 * Transaction status's Result parameters for one transaction of the ledger, as Daraja's sample
 * names and types them (docs/daraja-protocol.md §M5): `DebitPartyName` twice (the debit party,
 * then the credit party, under the same key), `TransactionReason` with no Value, `Amount` and the
 * times as strings. What the sample cannot say (the ReasonType of each kind, the fee labels) is
 * the simulator's choice, §M5.1.
 */
import { darajaAmount } from '../../money/amounts.ts';
import type { Ledger } from '../../money/ledger.ts';
import type { Transaction, TransactionKind } from '../../money/ledger.schema.ts';
import { eatNumber } from '../../ids.ts';
import { publicName } from '../../results/parties.ts';
import type { ResultItem } from '../../results/result.ts';

/**
 * Each kind's ReasonType. B2C's is the docs' sample's and a customer's paybill payment the 2024
 * fixture's; the others are the simulator's, named after their CommandIDs (§M5.1).
 */
const REASON_TYPES: Record<TransactionKind, { paybill: string; till: string }> = {
  stk: { paybill: 'Pay Bill Online', till: 'Buy Goods Online' },
  c2b: { paybill: 'Pay Bill Online', till: 'Buy Goods Online' },
  b2c: {
    paybill: 'Business Payment to Customer via API',
    till: 'Business Payment to Customer via API',
  },
  b2b: { paybill: 'Business Pay Bill', till: 'Business Buy Goods' },
  reversal: { paybill: 'Transaction Reversal', till: 'Transaction Reversal' },
};

/** The label of the charges a business paid: B2C's is the sample's, B2B's made after it. */
const FEES: Partial<Record<TransactionKind, string>> = {
  b2c: 'Fee For B2C Payment',
  b2b: 'Fee For B2B Payment',
};

/** A time as the sample writes it: YYYYMMDDHHmmss, Nairobi time, as a string. */
const timeText = (iso: string) => String(eatNumber(new Date(iso)));

/** An amount as the sample writes it: `"300"` for whole shillings, else two decimals. */
const amountText = (cents: number) =>
  cents % 100 === 0 ? String(cents / 100) : darajaAmount(cents);

/** `{Key}` alone when there is no Value, as the sample's TransactionReason. */
const item = (Key: string, Value: string | null | undefined): ResultItem =>
  Value === null || Value === undefined ? { Key } : { Key, Value };

export function statusParameters(ledger: Ledger, transaction: Transaction): ResultItem[] {
  const { debit, credit } = transaction;
  const till = !('msisdn' in credit) && credit.account === 'Merchant Account';
  return [
    item('DebitPartyName', publicName(ledger, debit)),
    // The sample names the credit party under the same key: a client must read a multimap.
    item('DebitPartyName', publicName(ledger, credit)),
    item('OriginatorConversationID', transaction.originatorConversationId),
    item('InitiatedTime', timeText(transaction.at)),
    item('DebitAccountType', 'msisdn' in debit ? 'MMF Account For Customer' : debit.account),
    item(
      'DebitPartyCharges',
      transaction.charges > 0
        ? `${FEES[transaction.kind] ?? 'Transaction Fee'}|KES|${darajaAmount(transaction.charges)}`
        : null,
    ),
    item('TransactionReason', null),
    item('ReasonType', REASON_TYPES[transaction.kind][till ? 'till' : 'paybill']),
    item('TransactionStatus', transaction.status),
    item('FinalisedTime', timeText(transaction.at)),
    item('Amount', amountText(transaction.amount)),
    item('ConversationID', transaction.conversationId),
    item('ReceiptNo', transaction.receipt),
  ];
}
