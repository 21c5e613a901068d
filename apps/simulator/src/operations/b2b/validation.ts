/**
 * The fields of a B2B payment request as the simulator checks them (docs/daraja-protocol.md
 * §M8.1), in the order of Daraja's sample; the first wrong one is named. `Initiator` and
 * `SecurityCredential` are the initiators' book's to check, after these.
 *
 * `RecieverIdentifierType` is spelt as Daraja spells it: a client that sends the correct
 * `ReceiverIdentifierType` has sent no such field, and is told `Bad Request - Invalid
 * RecieverIdentifierType`, as a production client was (§M1.2).
 */
import { commandWord } from '../../daraja/command-words.ts';
import type { Fields } from '../../daraja/gate.ts';
import { SHORTCODE } from '../../money/accounts.ts';
import {
  digits,
  occasion,
  readFields,
  textWithin,
  url,
  wholeShillings,
  type Checked,
} from '../b2c/fields.ts';

/**
 * The CommandIDs Daraja's current B2B pages document (§M8.1). Others that SDKs send, from older
 * docs (`BusinessToBusinessTransfer`, npm mpesa-node's default; `MerchantToMerchantTransfer`;
 * `DisburseFundsToBusiness`), are refused with `Invalid CommandID`, as Daraja refuses any field
 * value it does not take: the simulator cannot tell what Daraja does with them today, and taking
 * them would tell a client that they work.
 */
export const B2B_COMMANDS = ['BusinessPayBill', 'BusinessBuyGoods'] as const;
export type B2bCommand = (typeof B2B_COMMANDS)[number];

/** "Up to 13 characters" (§M8.1). */
export const MAX_ACCOUNT_REFERENCE = 13;

export interface B2bRequest {
  commandId: B2bCommand;
  /** Whole shillings, at least 1. */
  amount: number;
  partyA: string;
  partyB: string;
  /** Needed for a paybill; a till's may be left out. */
  accountReference: string | undefined;
  /** The consumer the payment is for, when given. */
  requester: string | undefined;
  remarks: string;
  queueTimeoutUrl: string;
  resultUrl: string;
  occasion: string | undefined;
}

/** An identifier type: "only '4' is allowed" for the sender (§M8.1). */
const identifierType = (value: unknown, allowed: readonly string[]) => {
  const type = digits(value);
  return type !== null && allowed.includes(type) ? type : null;
};

const shortcode = (value: unknown) => {
  const code = digits(value);
  return code !== null && SHORTCODE.test(code) ? code : null;
};

export function checkB2b(body: Fields, strict: boolean): Checked<B2bRequest> {
  const commandId = commandWord(body.CommandID, B2B_COMMANDS, strict);
  const reference = body.AccountReference;
  const requester = body.Requester;
  const occasionText = occasion(body);
  return readFields<B2bRequest & { sender: string; receiver: string }>({
    commandId: ['CommandID', () => commandId],
    sender: ['SenderIdentifierType', () => identifierType(body.SenderIdentifierType, ['4'])],
    // 4 is the docs' only value; 2 (a till, one library says, §M8.1) is taken too.
    receiver: [
      'RecieverIdentifierType',
      () => identifierType(body.RecieverIdentifierType, ['2', '4']),
    ],
    amount: [
      'Amount',
      () => {
        const amount = wholeShillings(body.Amount);
        return amount !== null && amount >= 1 ? amount : null;
      },
    ],
    partyA: ['PartyA', () => shortcode(body.PartyA)],
    partyB: ['PartyB', () => shortcode(body.PartyB)],
    accountReference: [
      'AccountReference',
      () =>
        reference === undefined && commandId === 'BusinessBuyGoods'
          ? undefined
          : textWithin(reference, 1, MAX_ACCOUNT_REFERENCE),
    ],
    requester: [
      'Requester',
      () => {
        if (requester === undefined || requester === '') return undefined;
        const number = digits(requester);
        return number !== null && /^[0-9]{12}$/.test(number) ? number : null;
      },
    ],
    remarks: ['Remarks', () => textWithin(body.Remarks, 1, 100)],
    queueTimeoutUrl: ['QueueTimeOutURL', () => url(body.QueueTimeOutURL)],
    resultUrl: ['ResultURL', () => url(body.ResultURL)],
    occasion: ['Occassion', () => occasionText],
  });
}
