/**
 * What a B2C payout can end with (docs/daraja-protocol.md §M4.4), in the words of Daraja's B2C page,
 * and the customers' numbers that always end with one of them (the README's test numbers): the
 * simulator's own choice, in the 2547000xxxxx range STK push's numbers leave free.
 */
import type { OutcomeMenu } from '../outcomes/next-outcomes.ts';

/** ResultCode → ResultDesc, as Daraja's B2C result table writes them (§M4.4). */
export const B2C_RESULTS = {
  '0': 'The service request is processed successfully.',
  '1': 'The balance is insufficient for the transaction.',
  '2': 'Declined due to limit rule',
  '3': 'Declined due to limit rule: greater than the maximum transaction amount.',
  '4': 'Declined due to limit rule: would exceed daily transfer limit',
  '8': 'Declined due to limit rule: would exceed the maximum balance.',
  '11': 'The DebitParty is in an invalid state.',
  '21': 'The initiator is not allowed to initiate this request',
  '2001': 'The initiator information is invalid.',
  '2006': 'Declined due to account rule: The account status does not allow this transaction.',
  '2028': 'The request is not permitted according to product assignment.',
  '2040':
    "Credit Party customer type (Unregistered or Registered Customer) can't be supported by the service.",
  '8006': 'The security credential is locked',
  SFC_IC0003: 'The operator does not exist.',
} as const satisfies Record<string, string>;
export type B2cResultCode = keyof typeof B2C_RESULTS;

/**
 * PartyB numbers whose payouts all fail with one code, whatever the ledger holds. (`0` has no number:
 * a payout is paid only when the ledger can pay it, so that the money always adds up.)
 */
const FORCED: Record<string, [B2cResultCode, string]> = {
  '254700020001': ['1', 'the utility account cannot pay'],
  '254700020002': ['2', 'below the minimum amount'],
  '254700020003': ['3', 'above the maximum amount'],
  '254700020004': ['4', "past the customer's daily limit"],
  '254700020008': ['8', "past the wallet's maximum balance"],
  '254700022040': ['2040', 'the customer is not registered'],
  '254700020033': ['SFC_IC0003', 'not a customer'],
  '254700022001': ['2001', 'the initiator information is invalid'],
  '254700028006': ['8006', 'the security credential is locked'],
};

export const B2C_MENU: OutcomeMenu = {
  resultCodes: B2C_RESULTS,
  forcedNumbers: Object.fromEntries(
    Object.entries(FORCED).map(([number, [resultCode, meaning]]) => [
      number,
      { resultCode, meaning },
    ]),
  ),
};
