/**
 * What the payouts' routes answer, and what the API description says of them
 * (openapi/responses.ts): each refusal made by the factory the route throws.
 */
import type { Readable } from 'node:stream';
import { z } from 'zod';
import {
  payoutBatchResponseSchema,
  payoutDecisionsResponseSchema,
  payoutListResponseSchema,
  payoutResponseSchema,
  payoutSummaryResponseSchema,
  type Payout,
} from '@mpesa/shared/contract-payouts';
import { AUTH_REFUSED, CHANGE_REFUSED } from '../operators/index.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';
import {
  payoutBatchRefused,
  payoutDailyLimit,
  payoutDecided,
  payoutNotCorrectable,
  payoutNotFound,
  payoutOverLimit,
  payoutOwnApproval,
  payoutsNotSetUp,
} from './payout-refusals.ts';

const AT = '2026-11-29T09:00:00.000Z';

export const SAMPLE_PAYOUT: Payout = {
  id: '01JDX4Y8W7R3T6Q2N5M9K1H0GF',
  batchId: null,
  kind: 'SalaryPayment',
  to: '254708374149',
  account: null,
  amount: 1500,
  reason: 'Wages for the week',
  status: 'proposed',
  proposedBy: 'Baraka',
  proposedAt: AT,
  decidedBy: null,
  decidedAt: null,
  resultCode: null,
  resultDescription: null,
  receipt: null,
  receiverName: null,
  charge: null,
  corrects: null,
  updatedAt: AT,
};

const PAID: Payout = {
  ...SAMPLE_PAYOUT,
  status: 'succeeded',
  decidedBy: 'Amina',
  decidedAt: AT,
  resultCode: '0',
  resultDescription: 'The service request is processed successfully.',
  receipt: 'UAB1C2D3E4',
  receiverName: '254708374149 - John Doe',
  charge: 22.4,
};

const TAGS = ['Payouts'];
const SIGNED_IN = [...CHANGE_REFUSED, ...PATH_REFUSALS];

export const LIST_DESCRIBED = {
  summary: 'The payouts, newest first',
  description:
    'The payouts proposed (newest first, a page at a time: pass `nextCursor` back as `cursor`), each with its status and outcome; `status` (one or several) and `from`, `to` (the business days they were proposed on, both included) select some. For the shop’s signed-in people only, who see the payee’s number whole.',
  tags: TAGS,
};
export const LIST_ANSWERS = {
  200: answer(payoutListResponseSchema, 'A page of the payouts.', {
    payouts: {
      summary: 'One paid',
      value: { success: true, data: { payouts: [PAID], nextCursor: null } },
    },
  }),
  ...refusals([
    REFUSED.validation,
    REFUSED.invalidCursor,
    AUTH_REFUSED.unauthenticated,
    ...PATH_REFUSALS,
    REFUSED.databaseUnavailable,
  ]),
};

export const SUMMARY_DESCRIBED = {
  summary: 'Money out at a glance',
  description:
    'The payouts M-PESA paid today and over the last 7 business days (by when each was approved, when M-PESA moves the money): how many, their total and M-PESA’s charges; and how many wait for an owner’s approval. Money out is never counted with the payments received (`GET /api/mpesa/summary`).',
  tags: TAGS,
};
export const SUMMARY_ANSWERS = {
  200: answer(payoutSummaryResponseSchema, 'Money out.', {
    summary: {
      summary: 'Three paid today, one waiting',
      value: {
        success: true,
        data: {
          today: { count: 3, amount: 4500, charges: 67.2 },
          last7Days: { count: 9, amount: 13_800, charges: 201.6 },
          waiting: 1,
        },
      },
    },
  }),
  ...refusals([AUTH_REFUSED.unauthenticated, ...PATH_REFUSALS, REFUSED.databaseUnavailable]),
};

const SAMPLE_CSV =
  "\uFEFFPayout ID,Proposed at (East Africa Time, UTC+03:00),Kind,Paid to,Account,Amount (KES),Charge (KES),Status,M-PESA receipt,Receiver's name,Reason,Proposed by,Decided by,Decided at (East Africa Time, UTC+03:00),Result\r\n" +
  '01JDX4Y8W7R3T6Q2N5M9K1H0GF,2026-11-29 12:00:00,SalaryPayment,254-708-374-149,,1500,22.4,succeeded,UAB1C2D3E4,254708374149 - John Doe,Wages for the week,Baraka,Amina,2026-11-29 12:05:00,The service request is processed successfully.\r\n';

export const EXPORT_DESCRIBED = {
  summary: 'The payouts as CSV',
  description:
    'The payouts the filters select (as `GET /api/payouts`), newest first, as a CSV file with its header row in English or Kiswahili (`lang`): a phone written as the history’s export writes one, a till or paybill as it is. An owner’s; the export is in the audit trail.',
  tags: TAGS,
};
export const EXPORT_ANSWERS = {
  200: {
    description: 'The payouts as CSV (RFC 4180), as an attachment.',
    content: {
      'text/csv': {
        schema: z.custom<Readable>().meta({ type: 'string', examples: [SAMPLE_CSV] }),
      },
    },
  },
  ...refusals([
    REFUSED.validation,
    AUTH_REFUSED.unauthenticated,
    AUTH_REFUSED.roleNotAllowed,
    ...PATH_REFUSALS,
    REFUSED.databaseUnavailable,
  ]),
};

export const ONE_DESCRIBED = { summary: 'One payout', tags: TAGS };
export const ONE_ANSWERS = {
  200: answer(payoutResponseSchema, 'The payout.', {
    paid: { summary: 'Paid', value: { success: true, data: PAID } },
  }),
  ...refusals([
    AUTH_REFUSED.unauthenticated,
    ...PATH_REFUSALS,
    refusal('No payout has this id', payoutNotFound()),
    REFUSED.databaseUnavailable,
  ]),
};

const LIMITS = [
  refusal('Over PAYOUT_MAX_AMOUNT', payoutOverLimit(150_000)),
  refusal('Over PAYOUT_DAILY_LIMIT today', payoutDailyLimit(1_000_000, 20_000)),
  refusal('No initiator is set up (MPESA_INITIATOR_NAME)', payoutsNotSetUp()),
];

export const PROPOSE_DESCRIBED = {
  summary: 'Propose a payout',
  description:
    'An owner or a cashier proposes one payout: to a phone (`BusinessPayment`, `SalaryPayment`, `PromotionPayment`, by B2C) or to a business (`BusinessPayBill` with its account, `BusinessBuyGoods` to a till, by B2B). It waits for a second owner unless PAYOUT_APPROVAL says one owner’s word is enough for an owner’s own. `corrects` names a failed payout this one replaces.',
  tags: TAGS,
};
export const PROPOSE_ANSWERS = {
  201: answer(payoutResponseSchema, 'The payout as it stands.', {
    proposed: {
      summary: 'Waiting for a second owner',
      value: { success: true, data: SAMPLE_PAYOUT },
    },
  }),
  ...refusals([
    ...SIGNED_IN,
    REFUSED.validation,
    REFUSED.invalidJson,
    REFUSED.bodyTooLarge,
    ...LIMITS,
    refusal(
      '`corrects` is not a failed payout, or it was corrected already',
      payoutNotCorrectable(),
    ),
    REFUSED.databaseUnavailable,
  ]),
};

export const BATCH_DESCRIBED = {
  summary: 'Propose a batch of payouts from a CSV file',
  description:
    'The file’s text in `csv`: a header naming `to`, `amount`, `reason` (and `kind`, `account` if wanted), then one payout a row. Every row is checked; the file is taken whole, or refused whole with each row’s problems in `problems`.',
  tags: TAGS,
};
export const BATCH_ANSWERS = {
  201: answer(payoutBatchResponseSchema, 'The batch, each payout as it stands.', {
    proposed: {
      summary: 'Waiting for a second owner',
      value: {
        success: true,
        data: { batchId: '01JDX4Y8W7R3T6Q2N5M9K1H0GG', payouts: [SAMPLE_PAYOUT] },
      },
    },
  }),
  ...refusals([
    ...SIGNED_IN,
    REFUSED.validation,
    REFUSED.invalidJson,
    REFUSED.bodyTooLarge,
    refusal(
      'A row has a problem: the file is refused whole',
      payoutBatchRefused(
        [{ row: 2, field: 'to', message: 'Please enter a valid Kenyan phone number' }],
        'The file was not taken: 1 row has a problem.',
      ),
    ),
    ...LIMITS,
    REFUSED.databaseUnavailable,
  ]),
};

const DECISION_REFUSALS = [
  ...SIGNED_IN,
  refusal('No payout has this id', payoutNotFound()),
  refusal('Approved or declined already', payoutDecided('sending')),
  REFUSED.databaseUnavailable,
];

export const APPROVE_DESCRIBED = {
  summary: 'Approve a payout, which sends it',
  description:
    'A second owner approves a proposed payout: it is sent to M-PESA once, whoever clicks at the same moment. Nobody approves their own.',
  tags: TAGS,
};
export const APPROVE_ANSWERS = {
  200: answer(payoutResponseSchema, 'The payout as it stands.', {
    sending: {
      summary: 'Sent, its outcome awaited',
      value: {
        success: true,
        data: { ...SAMPLE_PAYOUT, status: 'sending', decidedBy: 'Amina', decidedAt: AT },
      },
    },
  }),
  ...refusals([
    ...DECISION_REFUSALS,
    refusal('The approver proposed it', payoutOwnApproval()),
    refusal('No initiator is set up (MPESA_INITIATOR_NAME)', payoutsNotSetUp()),
  ]),
};

export const DECLINE_DESCRIBED = {
  summary: 'Decline a payout',
  description: 'An owner declines a proposed payout: nothing is sent.',
  tags: TAGS,
};
export const DECLINE_ANSWERS = {
  200: answer(payoutResponseSchema, 'The payout, declined.', {
    declined: {
      summary: 'Declined',
      value: {
        success: true,
        data: { ...SAMPLE_PAYOUT, status: 'declined', decidedBy: 'Amina', decidedAt: AT },
      },
    },
  }),
  ...refusals(DECISION_REFUSALS),
};

export const BATCH_DECISION_DESCRIBED = {
  summary: 'Approve or decline every payout still proposed in a batch',
  description:
    'Each payout of the batch still proposed, one after the other (each approved is sent before the next). One that another owner approves or declines meanwhile is left as they decided it, and the rest go on: the answer lists the payouts decided by this request.',
  tags: TAGS,
};
export const BATCH_DECISION_ANSWERS = {
  200: answer(payoutDecisionsResponseSchema, 'The batch’s payouts decided now.', {
    decided: { summary: 'Approved', value: { success: true, data: { payouts: [PAID] } } },
  }),
  ...refusals([
    ...DECISION_REFUSALS,
    refusal('The approver proposed one of them', payoutOwnApproval()),
  ]),
};
