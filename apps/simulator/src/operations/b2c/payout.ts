/**
 * A B2C payout, decided when its request is accepted (docs/daraja-protocol.md §M4.5): the money
 * moves then, from the shortcode's Utility Account to the customer's wallet, and the Result that
 * says so travels SIM_CALLBACK_DELAY_MS later (results/owed.ts). What the Result says comes from
 * the ledger's own refusals (money/ledger.ts), so that what a client is told and what account
 * balance and the control API show always agree.
 */
import type { DeliveryFault } from '../../callbacks.ts';
import { eatParts } from '../../ids.ts';
import { MSISDN } from '../../money/accounts.ts';
import type { Cents } from '../../money/amounts.ts';
import type { Ledger } from '../../money/ledger.ts';
import type { Conversation, ResultItem, ResultOutcome } from '../../results/result.ts';
import type { InitiatorCheck } from '../initiators/initiator-book.ts';
import type { NextOutcomes } from '../outcomes/next-outcomes.ts';
import { B2C_RESULTS, type B2cResultCode } from './outcomes.ts';
import type { B2cRequest } from './validation.ts';

/** The least and the most one payout may be, in shillings (§M4.1): below is 2, above is 3. */
export const MIN_PAYOUT = 10;
export const MAX_PAYOUT = 250_000;
/**
 * What each payout costs the shortcode, into its Charges Paid Account: the one B2C fee seen in
 * Daraja's pages (§M5, `Fee For B2C Payment|KES|22.40`). Safaricom's tariff bands are not in the
 * sources; one flat fee keeps the sums easy to check.
 */
export const B2C_CHARGE: Cents = 22_40;

/** What the Result will say, and how a number's chosen outcome asked it to be delivered. */
export interface Payout {
  outcome: ResultOutcome;
  fault: DeliveryFault;
}

/** `dd.MM.yyyy HH:mm:ss` in Nairobi, B2C's own date format (§M4.3). */
export function b2cDateTime(at: Date): string {
  const p = eatParts(at);
  return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}:${p.second}`;
}

const shillings = (cents: Cents | undefined) => (cents ?? 0) / 100;

/** Why M-PESA declines this payout before any money moves, if it does. */
function declined(request: B2cRequest, ledger: Ledger): B2cResultCode | undefined {
  if (request.amount < MIN_PAYOUT) return '2';
  if (request.amount > MAX_PAYOUT) return '3';
  if (!MSISDN.test(request.partyB)) return 'SFC_IC0003';
  // SalaryPayment pays unregistered customers (§M4.5 says why); the other two do not (§M4.1).
  if (request.commandId !== 'SalaryPayment' && !ledger.wallet(request.partyB).registered) {
    return '2040';
  }
  return undefined;
}

/**
 * Decides a payout: the credential's failure first, then the number's chosen or magic outcome
 * (`outcomes`, registered as `b2c`), then M-PESA's limits and the ledger, which moves the money
 * when it can.
 */
export function payOut(
  request: B2cRequest,
  credential: Exclude<InitiatorCheck, { kind: 'refused' }>,
  conversation: Conversation,
  { ledger, outcomes, now }: { ledger: Ledger; outcomes: NextOutcomes; now: Date },
): Payout {
  let fault: DeliveryFault = {};
  const fail = (code: string): Payout => {
    const resultCode = Object.hasOwn(B2C_RESULTS, code) ? (code as B2cResultCode) : '1';
    const outcome = { conversation, resultCode, resultDesc: B2C_RESULTS[resultCode], queue: 'b2c' };
    return { outcome, fault };
  };
  const movement = {
    kind: 'b2c',
    amount: request.amount * 100,
    charges: B2C_CHARGE,
    from: { shortcode: request.partyA, account: 'Utility Account' },
    to: { msisdn: request.partyB },
    conversationId: conversation.conversationId,
    originatorConversationId: conversation.originatorConversationId,
    ...(request.occasion !== undefined && { reference: request.occasion }),
  } as const;
  // A payout M-PESA declined is kept as a Declined transaction that moved nothing, so that
  // transaction status finds it by its OriginatorConversationID (§M4.5); a wrong credential (2001,
  // 8006, played by a number or not) never reaches M-PESA's books, nor does a payout of nothing
  // (Amount 0, declined with 2) or one to a number no customer can have (SFC_IC0003), which has no
  // party for the books, nor a name transaction status could give it.
  const decline = (code: string): Payout => {
    const books =
      movement.amount > 0 && MSISDN.test(request.partyB) && code !== '2001' && code !== '8006';
    if (books) ledger.record({ ...movement, charges: 0 }, 'Declined');
    return fail(code);
  };
  if (credential.kind === 'failed') return fail(credential.resultCode);
  const forced = outcomes.take('b2c', request.partyB);
  fault = forced?.fault ?? {};
  if (forced && forced.resultCode !== '0') return decline(forced.resultCode);
  const refused = declined(request, ledger);
  if (refused) return decline(refused);
  const moved = ledger.move(movement);
  if (!moved.ok) return decline(moved.resultCode);
  const receipt = moved.transaction.receipt;
  const accounts = ledger.shortcode(request.partyA).accounts;
  const wallet = ledger.wallet(request.partyB);
  // In the order of Daraja's 2024 page; clients must look them up by Key (§M4.3).
  const parameters: ResultItem[] = [
    { Key: 'TransactionAmount', Value: request.amount },
    { Key: 'TransactionReceipt', Value: receipt },
    { Key: 'ReceiverPartyPublicName', Value: `${wallet.msisdn} - ${wallet.name}` },
    { Key: 'TransactionCompletedDateTime', Value: b2cDateTime(now) },
    { Key: 'B2CUtilityAccountAvailableFunds', Value: shillings(accounts['Utility Account']) },
    { Key: 'B2CWorkingAccountAvailableFunds', Value: shillings(accounts['Working Account']) },
    { Key: 'B2CRecipientIsRegisteredCustomer', Value: wallet.registered ? 'Y' : 'N' },
    {
      Key: 'B2CChargesPaidAccountAvailableFunds',
      Value: shillings(accounts['Charges Paid Account']),
    },
  ];
  const outcome = {
    conversation,
    resultCode: '0',
    resultDesc: B2C_RESULTS['0'],
    transactionId: receipt,
    parameters,
    queue: 'b2c',
  };
  return { outcome, fault };
}
