/**
 * A B2B payment, decided when its request is accepted, as B2C's is (docs/daraja-protocol.md
 * §M8.1, §M4.5): the money moves then, from PartyA's Working Account to PartyB's Utility Account
 * (a paybill) or Merchant Account (a till), and the Result follows SIM_CALLBACK_DELAY_MS later.
 * B2B charges nothing: the docs' success sample has `DebitPartyCharges` empty.
 */
import type { DeliveryFault } from '../../callbacks.ts';
import { eatNumber } from '../../ids.ts';
import { collectionAccount } from '../../money/accounts.ts';
import { darajaAmount, type Cents } from '../../money/amounts.ts';
import { balanceText, type Ledger } from '../../money/ledger.ts';
import type { Conversation, ResultItem, ResultOutcome } from '../../results/result.ts';
import { queueTimeoutItem } from '../../results/result.ts';
import { B2C_RESULTS } from '../b2c/outcomes.ts';
import type { InitiatorCheck } from '../initiators/initiator-book.ts';
import type { NextOutcomes, OutcomeMenu } from '../outcomes/next-outcomes.ts';
import type { B2bRequest } from './validation.ts';

/** What a B2B payment can end with: B2C's words for the same codes (§M4.4). */
const B2B_RESULTS = {
  '0': B2C_RESULTS['0'],
  '1': B2C_RESULTS['1'],
  '2001': B2C_RESULTS['2001'],
  '2028': B2C_RESULTS['2028'],
  '8006': B2C_RESULTS['8006'],
  SFC_IC0003: B2C_RESULTS.SFC_IC0003,
} as const;
type B2bResultCode = keyof typeof B2B_RESULTS;

/**
 * Receiving shortcodes (PartyB) whose payments always fail with one code. The ledger knows any
 * shortcode from its first use, so an unknown receiver exists only here: `SFC_IC0003`, "The
 * operator does not exist." (what Daraja answers for one is not in the sources, §M8.1).
 */
const FORCED: Record<string, [B2bResultCode, string]> = {
  '700404': ['SFC_IC0003', 'no such receiver'],
  '700001': ['1', 'the working account cannot pay'],
  '702028': ['2028', 'not permitted for the shortcode'],
  '702001': ['2001', 'the initiator information is invalid'],
  '708006': ['8006', 'the security credential is locked'],
};

export const B2B_MENU: OutcomeMenu = {
  resultCodes: B2B_RESULTS,
  forcedNumbers: Object.fromEntries(
    Object.entries(FORCED).map(([code, [resultCode, meaning]]) => [code, { resultCode, meaning }]),
  ),
};

/**
 * An account's balance as the B2B Result prints it, like a Java object (§M8.1):
 * `{Amount={CurrencyCode=KES, MinimumAmount=618683, BasicAmount=6186.83}}`, the first figure cents.
 */
export function javaBalance(cents: Cents): string {
  return `{Amount={CurrencyCode=KES, MinimumAmount=${cents}, BasicAmount=${darajaAmount(cents)}}}`;
}

export interface B2bPayment {
  outcome: ResultOutcome;
  fault: DeliveryFault;
}

/**
 * Decides a payment: the credential's failure first, then the receiver's (or the Requester's)
 * chosen or magic outcome (`outcomes`, registered as `b2b`), then the ledger.
 */
export function payBusiness(
  request: B2bRequest,
  credential: Exclude<InitiatorCheck, { kind: 'refused' }>,
  conversation: Conversation,
  { ledger, outcomes, now }: { ledger: Ledger; outcomes: NextOutcomes; now: Date },
): B2bPayment {
  let fault: DeliveryFault = {};
  const fail = (code: string): B2bPayment => {
    const resultCode = Object.hasOwn(B2B_RESULTS, code) ? (code as B2bResultCode) : '1';
    const outcome = { conversation, resultCode, resultDesc: B2B_RESULTS[resultCode], queue: 'b2b' };
    return { outcome, fault };
  };
  if (credential.kind === 'failed') return fail(credential.resultCode);
  const forced =
    outcomes.take('b2b', request.partyB) ??
    (request.requester === undefined ? undefined : outcomes.take('b2b', request.requester));
  fault = forced?.fault ?? {};
  const kind = request.commandId === 'BusinessBuyGoods' ? 'till' : 'paybill';
  const movement = {
    kind: 'b2b',
    amount: request.amount * 100,
    from: { shortcode: request.partyA, account: 'Working Account' },
    to: { shortcode: request.partyB, account: collectionAccount(kind) },
    conversationId: conversation.conversationId,
    originatorConversationId: conversation.originatorConversationId,
    ...(request.accountReference !== undefined && { reference: request.accountReference }),
  } as const;
  // As B2C's (b2c/payout.ts): a payment M-PESA declined is kept as Declined, for transaction
  // status; a wrong credential and a payment of nothing never reach its books.
  const decline = (code: string): B2bPayment => {
    if (movement.amount > 0 && code !== '2001' && code !== '8006') {
      ledger.record(movement, 'Declined');
    }
    return fail(code);
  };
  if (forced && forced.resultCode !== '0') return decline(forced.resultCode);
  const payee = ledger.shortcode(request.partyB, kind);
  const moved = ledger.move({
    ...movement,
    to: { shortcode: payee.shortcode, account: collectionAccount(payee.kind) },
  });
  if (!moved.ok) return decline(moved.resultCode);
  const working = ledger.shortcode(request.partyA).accounts['Working Account'] ?? 0;
  // In the order of the docs' success sample, each Value a string as there (§M8.1).
  const parameters: ResultItem[] = [
    { Key: 'DebitAccountBalance', Value: javaBalance(working) },
    { Key: 'Amount', Value: darajaAmount(request.amount * 100) },
    {
      Key: 'DebitPartyAffectedAccountBalance',
      Value: balanceText({ accounts: { 'Working Account': working } }),
    },
    { Key: 'TransCompletedTime', Value: String(eatNumber(now)) },
    { Key: 'DebitPartyCharges', Value: '' },
    { Key: 'ReceiverPartyPublicName', Value: `${payee.shortcode} - ${payee.name}` },
    { Key: 'Currency', Value: 'KES' },
    { Key: 'InitiatorAccountCurrentBalance', Value: javaBalance(working) },
  ];
  const outcome: ResultOutcome = {
    conversation,
    resultCode: '0',
    resultDesc: B2B_RESULTS['0'],
    transactionId: moved.transaction.receipt,
    parameters,
    queue: 'b2b',
    reference: [
      ...(request.accountReference === undefined
        ? []
        : [{ Key: 'BillReferenceNumber', Value: request.accountReference }]),
      queueTimeoutItem('b2b'),
    ],
  };
  return { outcome, fault };
}
