/**
 * What the refund route answers, and what the API description says of it (openapi/responses.ts):
 * the refund as it stands, or why the payment cannot be refunded, each refusal made by the factory
 * the route throws.
 */
import { refundResponseSchema, type Refund } from '@mpesa/shared/contract';
import {
  refundAmountMismatch,
  refundExists,
  refundFlagged,
  refundNotPaid,
  refundTooOld,
  refundsNotSetUp,
} from './refund-refusals.ts';
import { CHANGE_REFUSED } from '../operators/index.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';
import { SAMPLE } from '../payments/index.ts';

const REQUESTED: Refund = {
  id: '01JDX4Y8W7R3T6Q2N5M9K1H0GF',
  status: 'requested',
  amount: SAMPLE.paid.amount,
  reason: 'Returned goods',
  requestedBy: 'Amina',
  requestedAt: SAMPLE.createdAt,
  updatedAt: SAMPLE.createdAt,
  resultCode: null,
  resultDescription: null,
  reversalReceipt: null,
};

export const REFUND_DESCRIBED = {
  summary: 'Refund a paid payment',
  description:
    'Gives the whole payment back to the payer by M-PESA’s reversal (docs/product.md §10): the ' +
    'reason is required, and `amount` must be the payment’s, as the owner confirmed it. One refund ' +
    'per payment: a second request, from anyone, is refused while the first is requested or once ' +
    'reversed; a failed one may be asked for again. The answer is the refund as it stands, ' +
    '`requested` until M-PESA’s Result says `reversed` or `failed` (follow it on the payment), or ' +
    '`failed` at once when M-PESA refused the request or could not be reached. The reason and the ' +
    'owner’s name are kept in the payment’s timeline and in the audit trail.',
  tags: ['History'],
};

export const REFUND_ANSWERS = {
  202: answer(refundResponseSchema, 'The refund as it stands.', {
    requested: { summary: 'Sent to M-PESA', value: { success: true, data: REQUESTED } },
    failed: {
      summary: 'M-PESA refused the reversal',
      value: {
        success: true,
        data: {
          ...REQUESTED,
          status: 'failed',
          resultCode: '400.002.02',
          resultDescription: 'M-PESA refused the reversal: Bad Request - Invalid TransactionID',
        },
      },
    },
  }),
  ...refusals([
    ...CHANGE_REFUSED,
    ...PATH_REFUSALS,
    REFUSED.validation,
    REFUSED.invalidJson,
    REFUSED.bodyTooLarge,
    refusal('The amount is not the payment’s', refundAmountMismatch(SAMPLE.paid.amount)),
    REFUSED.transactionNotFound,
    refusal('The payment is not paid, or has no receipt yet', refundNotPaid()),
    refusal('The payment is flagged for review', refundFlagged()),
    refusal('The payment is older than REFUND_MAX_AGE_DAYS', refundTooOld(30)),
    refusal('No initiator is set up (MPESA_INITIATOR_NAME)', refundsNotSetUp()),
    refusal('A refund was asked for already, by anyone', refundExists()),
    REFUSED.databaseUnavailable,
  ]),
};
