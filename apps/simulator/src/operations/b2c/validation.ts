/**
 * The fields of a B2C payment request as the simulator checks them (docs/daraja-protocol.md
 * §M4.1, §M4.2), in the order of Daraja's sample; the first wrong one is named. `InitiatorName`
 * and `SecurityCredential` are the initiators' book's to check (operations/initiators/), after
 * these.
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
} from './fields.ts';

export const B2C_COMMANDS = ['SalaryPayment', 'BusinessPayment', 'PromotionPayment'] as const;
export type B2cCommand = (typeof B2C_COMMANDS)[number];

/** The merchant's own id for a v3 request: at most this long (Daraja's limit is not published). */
export const MAX_ORIGINATOR_ID = 100;

export interface B2cRequest {
  /** v3's, as the client sent it; undefined for v1, whose gateway makes one. */
  originatorConversationId: string | undefined;
  commandId: B2cCommand;
  /** Whole shillings. */
  amount: number;
  /** The B2C shortcode that pays. */
  partyA: string;
  /** The customer's number, 12 digits; whether it is a customer's is the Result's to say. */
  partyB: string;
  remarks: string;
  queueTimeoutUrl: string;
  resultUrl: string;
  occasion: string | undefined;
}

/** v3 requires the merchant's OriginatorConversationID (§M4.2); v1 has none. */
export function checkB2c(body: Fields, version: 'v1' | 'v3', strict: boolean): Checked<B2cRequest> {
  const originator = body.OriginatorConversationID;
  const shortcode = digits(body.PartyA);
  const msisdn = digits(body.PartyB);
  const occasionText = occasion(body);
  return readFields<B2cRequest>({
    originatorConversationId: [
      'OriginatorConversationID',
      () =>
        version === 'v1'
          ? undefined
          : (textWithin(originator, 1, MAX_ORIGINATOR_ID)?.trim() ?? null),
    ],
    commandId: ['CommandID', () => commandWord(body.CommandID, B2C_COMMANDS, strict)],
    amount: ['Amount', () => wholeShillings(body.Amount)],
    partyA: ['PartyA', () => (shortcode !== null && SHORTCODE.test(shortcode) ? shortcode : null)],
    partyB: ['PartyB', () => (msisdn !== null && /^[0-9]{12}$/.test(msisdn) ? msisdn : null)],
    remarks: ['Remarks', () => textWithin(body.Remarks, 2, 100)],
    queueTimeoutUrl: ['QueueTimeOutURL', () => url(body.QueueTimeOutURL)],
    resultUrl: ['ResultURL', () => url(body.ResultURL)],
    occasion: ['Occassion', () => occasionText],
  });
}
