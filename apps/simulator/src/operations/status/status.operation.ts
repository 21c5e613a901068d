/**
 * Transaction status (docs/daraja-protocol.md §M5): finds any transaction of the ledger (STK, C2B,
 * B2C, B2B, reversal) by its receipt or its OriginatorConversationID, and posts its real state in
 * the Result. §M5.1 says what the simulator chose where Daraja is not known.
 */
import { MSISDN } from '../../money/accounts.ts';
import type { Transaction } from '../../money/ledger.schema.ts';
import { customerOf, isPartyTo } from '../../results/parties.ts';
import type { FieldReader, ResultUrls } from '../../results/request-fields.ts';
import { FAMILY_CODES, failed, resultOperation, type Decided } from '../../results/result-api.ts';
import type { OperationContext } from '../operation.ts';
import { statusDocs } from './status.docs.ts';
import { statusParameters } from './status-result.ts';

export const STATUS_PATH = '/mpesa/transactionstatus/v1/query';
const IDENTIFIER_TYPES = ['1', '2', '4'] as const;

export interface StatusRequest extends ResultUrls {
  transactionId: string | undefined;
  originalConversationId: string | undefined;
  partyA: string;
  identifierType: (typeof IDENTIFIER_TYPES)[number];
  occasion: string | undefined;
}

function read(fields: FieldReader): StatusRequest {
  fields.command('TransactionStatusQuery');
  const transactionId = fields.has('TransactionID') ? fields.text('TransactionID') : undefined;
  // Spelt so: the original's OriginatorConversationID, under another key (§M5).
  const originalConversationId = fields.has('OriginalConversationID')
    ? fields.text('OriginalConversationID')
    : undefined;
  if (transactionId === undefined && originalConversationId === undefined) {
    fields.invalid('TransactionID');
  }
  const partyA = fields.digits('PartyA', /^[0-9]{5,12}$/);
  // 1, 2 and 4 as clients send them, but not checked against PartyA's shape: `daraja.js` always
  // sends 1 with the shortcode as PartyA. A party with no part in the transaction is not refused
  // here: it finds nothing, and the Result says so (§M5.1).
  const identifierType = fields.oneOf('IdentifierType', IDENTIFIER_TYPES);
  const urls = fields.urls();
  fields.text('Remarks');
  return {
    transactionId: transactionId?.trim(),
    originalConversationId: originalConversationId?.trim(),
    partyA,
    identifierType,
    occasion: fields.occasion(),
    ...urls,
  };
}

function find({ ledger }: OperationContext, request: StatusRequest): Transaction | undefined {
  const byReceipt = request.transactionId && ledger.byReceipt(request.transactionId);
  if (byReceipt) return byReceipt;
  return request.originalConversationId
    ? ledger.byOriginatorConversationId(request.originalConversationId)
    : undefined;
}

/**
 * The transaction's state, or R000002 when PartyA has none by that receipt or id: reversal's code
 * for "no such transaction", as nothing was ever captured for transaction status (§M5.1). PartyA is
 * matched by its digits against either side, whatever IdentifierType says it is.
 */
function decide(request: StatusRequest, _ids: unknown, context: OperationContext): Decided {
  const found = find(context, request);
  const phone = found
    ? customerOf(found)
    : MSISDN.test(request.partyA)
      ? request.partyA
      : undefined;
  const forced = phone === undefined ? undefined : context.outcomes.take('status', phone);
  if (forced && forced.resultCode !== '0') return failed(forced.resultCode, forced.fault);
  if (!found || !isPartyTo(request.partyA, found)) return failed('R000002', forced?.fault);
  return {
    resultCode: '0',
    resultDesc: FAMILY_CODES['0']!,
    parameters: statusParameters(context.ledger, found),
    fault: forced?.fault,
  };
}

export const status = resultOperation({
  name: 'status',
  target: 'transactionstatus',
  path: STATUS_PATH,
  queue: 'ts',
  keptKey: 'statusResults',
  menu: {
    resultCodes: {
      '0': 'The transaction as the ledger has it.',
      R000002: FAMILY_CODES.R000002!,
      SFC_IC0003: FAMILY_CODES.SFC_IC0003!,
      '2001': FAMILY_CODES['2001']!,
    },
    forcedNumbers: {
      '254700040002': { resultCode: 'R000002', meaning: 'no such transaction, whatever is asked' },
      '254700040003': { resultCode: 'SFC_IC0003', meaning: 'the operator does not exist' },
    },
  },
  read,
  // The Occasion comes back as the one ReferenceItem, with no Value when none was sent (§M5).
  reference: ({ occasion }) => [
    occasion === undefined ? { Key: 'Occasion' } : { Key: 'Occasion', Value: occasion },
  ],
  decide,
  docs: statusDocs,
});
