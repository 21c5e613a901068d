/**
 * Reversal (docs/daraja-protocol.md §M7): moves a customer's payment to a shortcode back to the
 * customer, through the ledger. A C2B payment or an STK push payment (a C2B payment made from a
 * prompt) can be reversed, whole, once; a B2C or B2B payment cannot by API, nor a reversal, nor a
 * payment the ReceiverParty did not receive (R000002). §M7.1 says what the simulator chose where
 * Daraja is not known.
 */
import { SHORTCODE } from '../../money/accounts.ts';
import type { Transaction, TransactionKind } from '../../money/ledger.schema.ts';
import { customerOf } from '../../results/parties.ts';
import type { FieldReader, ResultUrls } from '../../results/request-fields.ts';
import { FAMILY_CODES, failed, resultOperation, type Decided } from '../../results/result-api.ts';
import type { Conversation } from '../../results/result.ts';
import type { OperationContext } from '../operation.ts';
import { reversalDocs } from './reversal.docs.ts';
import { reversalParameters } from './reversal-result.ts';

export const REVERSAL_PATH = '/mpesa/reversal/v1/request';

export interface ReversalRequest extends ResultUrls {
  transactionId: string;
  /** Checked as an amount, not used: a reversal moves the whole original back (§M7.1). */
  amount: number;
  receiverParty: string;
}

function read(fields: FieldReader): ReversalRequest {
  fields.command('TransactionReversal');
  const transactionId = fields.text('TransactionID').trim();
  if (!/^[A-Za-z0-9]{1,20}$/.test(transactionId)) fields.invalid('TransactionID');
  const amount = fields.amount('Amount');
  const receiverParty = fields.digits('ReceiverParty', SHORTCODE);
  // Daraja reads this spelling only: `ReceiverIdentifierType` counts as missing (§M7). The docs
  // say 11, Safaricom's Postman collection 4; both are taken.
  fields.oneOf('RecieverIdentifierType', ['11', '4']);
  const urls = fields.urls();
  fields.text('Remarks', 2);
  fields.occasion();
  return { transactionId, amount, receiverParty, ...urls };
}

/** What the Reversals API reverses: payments from customers to a shortcode (§M7). */
const REVERSIBLE = new Set<TransactionKind>(['c2b', 'stk']);

const receivedBy = (original: Transaction, shortcode: string) =>
  'shortcode' in original.credit && original.credit.shortcode === shortcode;

function decide(
  request: ReversalRequest,
  conversation: Conversation,
  { ledger, outcomes }: OperationContext,
): Decided {
  const original = ledger.byReceipt(request.transactionId);
  const customer = original && customerOf(original);
  const forced = customer === undefined ? undefined : outcomes.take('reversal', customer);
  if (forced && forced.resultCode !== '0') return failed(forced.resultCode, forced.fault);
  const fault = forced?.fault;
  if (!original || !REVERSIBLE.has(original.kind) || !receivedBy(original, request.receiverParty)) {
    return failed('R000002', fault);
  }
  // R000001 when already reversed; 1 when the shortcode's account cannot pay it back.
  const moved = ledger.reverse(original.receipt, {
    conversationId: conversation.conversationId,
    originatorConversationId: conversation.originatorConversationId,
  });
  if (!moved.ok) return failed(moved.resultCode, fault);
  return {
    resultCode: '0',
    resultDesc: FAMILY_CODES['0']!,
    transactionId: moved.transaction.receipt,
    parameters: reversalParameters(ledger, moved.transaction),
    fault,
  };
}

export const reversal = resultOperation({
  name: 'reversal',
  target: 'reversal',
  path: REVERSAL_PATH,
  queue: 'reversal',
  keptKey: 'reversalResults',
  menu: {
    resultCodes: {
      '0': 'Reversed, as the ledger allows.',
      '1': FAMILY_CODES['1']!,
      R000001: FAMILY_CODES.R000001!,
      R000002: FAMILY_CODES.R000002!,
      '2001': FAMILY_CODES['2001']!,
    },
    forcedNumbers: {
      '254700030001': { resultCode: 'R000001', meaning: 'already reversed' },
      '254700030002': { resultCode: 'R000002', meaning: 'not a receipt that can be reversed' },
      '254700030003': { resultCode: '1', meaning: 'the shortcode cannot pay it back' },
    },
  },
  read,
  decide,
  docs: reversalDocs,
});
