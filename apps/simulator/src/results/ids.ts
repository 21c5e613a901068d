/**
 * The identifiers of the asynchronous Result APIs (docs/daraja-protocol.md §M1.1, §M1.3): the
 * ConversationID M-PESA gives a request, the OriginatorConversationID the gateway gives one whose
 * client sent none, and the placeholder TransactionID of a failure that made no transaction.
 */
import { randomInt } from 'node:crypto';
import { eatParts, hex, merchantRequestId, receiptYearLetter } from '../ids.ts';

/** `AG_` + the date in Nairobi + `_` + 20 hex digits: `AG_20240706_20106e9209f64bebd05b`. */
export function conversationId(at: Date): string {
  const { year, month, day } = eatParts(at);
  return `AG_${year}${month}${day}_${hex(20)}`;
}

/**
 * The gateway's OriginatorConversationID, in the hex style it has used since about 2021
 * (`53e3-4aa8-9fe0-8fb5e4092cdd3533373`), the style of STK's MerchantRequestID.
 */
export const gatewayOriginatorConversationId = merchantRequestId;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A failure's TransactionID when no transaction was made: three letters and seven zeros
 * (`OFP0000000`, `SKE0000000`), the first the year's, as a receipt's is.
 */
export function placeholderTransactionId(at: Date): string {
  const letter = () => LETTERS[randomInt(LETTERS.length)];
  return `${receiptYearLetter(at)}${letter()}${letter()}0000000`;
}
