/**
 * What the C2B callbacks and the receipt checks answer, and what the API description says of
 * them (openapi/responses.ts): kept apart so that the handlers and routes stay readable.
 */
import { z } from 'zod';
import { receiptCheckResponseSchema } from '@mpesa/shared/contract';
import { tooManyChecks } from '../../errors.ts';
import { c2bNotSetUp, receiptCheckNotFound } from './c2b-refusals.ts';
import { ACCESS_REFUSED, AUTH_REFUSED } from '../operators/index.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';
import { CALLBACK_ANSWERS } from '../../callbacks/callbacks.openapi.ts';
import { ACCEPTED, C2B_REFUSALS, type ValidationAnswer } from './validation-decision.ts';

/** §M3.5: the acknowledgement M-PESA expects for a confirmation, its ResultCode a number. */
export const CONFIRMATION_TAKEN = { ResultCode: 0, ResultDesc: 'Success' };
/** A body that is no C2B notification at all (kept all the same). */
export const CONFIRMATION_REJECTED = {
  ResultCode: 1,
  ResultDesc: 'Rejected: not a C2B confirmation',
};

const confirmationAnswerSchema = z.object({ ResultCode: z.number(), ResultDesc: z.string() });
const validationAnswerSchema = z.object({ ResultCode: z.string(), ResultDesc: z.string() });

/** Every callback's refusals (the path, the guard, the body, the database), as STK push's. */
const { 200: _stkTaken, 400: _stkRejected, ...CALLBACK_REFUSALS } = CALLBACK_ANSWERS;

const tags = ['M-PESA callback'];

export const C2B_DESCRIBED = {
  confirmation: {
    summary: 'M-PESA tells of a till or paybill payment (C2B confirmation)',
    description:
      'Daraja posts here each payment a customer made to MPESA_C2B_SHORTCODE from the phone’s menu ' +
      '(docs/daraja-protocol.md §M3.3). The body is kept as it arrived, then recorded as a payment ' +
      '(channel `till` or `paybill`) once per receipt: a duplicate, or another shortcode’s ' +
      'payment, records nothing more.',
    tags,
  },
  validation: {
    summary: 'M-PESA asks whether to take a till or paybill payment (C2B validation)',
    description:
      'With MPESA_C2B_VALIDATION `amount` or `invoice` (and external validation turned on for the ' +
      'shortcode by Safaricom), M-PESA asks here before taking a payment (§M3.4). The body is kept; ' +
      `\`${C2B_REFUSALS.amount}\` refuses an amount outside C2B_MIN_AMOUNT..C2B_MAX_AMOUNT, ` +
      `\`${C2B_REFUSALS.account}\` an account number that matches no open payment request; when the ` +
      'database cannot answer in time, the registered MPESA_C2B_RESPONSE_TYPE decides.',
    tags,
  },
  receiptStatus: {
    summary: 'A transaction status Result about a receipt the merchant typed',
    description:
      'Daraja posts the Result of a receipt check’s transaction status query here (§M5): a ' +
      'completed payment to our shortcode is recorded as its confirmation would have been.',
    tags,
  },
};

export const C2B_ANSWERS = {
  confirmation: {
    200: answer(confirmationAnswerSchema, 'Taken: recorded, a duplicate, or not ours.', {
      taken: { summary: 'Taken', value: CONFIRMATION_TAKEN },
    }),
    ...CALLBACK_REFUSALS,
    400: answer(confirmationAnswerSchema, 'Not a C2B confirmation (kept all the same).', {
      rejected: { summary: 'Not a C2B confirmation', value: CONFIRMATION_REJECTED },
    }),
  },
  validation: {
    200: answer(validationAnswerSchema, 'The verdict: accepted, or rejected with §M3.4’s code.', {
      accepted: { summary: 'Accepted', value: ACCEPTED },
      amount: {
        summary: 'The amount is out of range',
        value: { ResultCode: C2B_REFUSALS.amount, ResultDesc: 'Rejected' } as ValidationAnswer,
      },
      account: {
        summary: 'The account number matches no open payment request',
        value: { ResultCode: C2B_REFUSALS.account, ResultDesc: 'Rejected' } as ValidationAnswer,
      },
    }),
    ...CALLBACK_REFUSALS,
  },
};

const CHECK_SAMPLE = {
  id: '019a1c2e-5b7d-7c41-9a2f-3e8d4b6a1f20',
  receipt: 'UCE31H462N',
  transactionId: null,
  resultCode: null,
  requestedAt: '2026-03-14T09:40:12.000Z',
};

const checkAnswer = answer(
  receiptCheckResponseSchema,
  'The check: `asked` while M-PESA’s answer is awaited, then `found`, `not_found` or `failed`.',
  {
    asked: {
      summary: 'M-PESA was asked; its answer is awaited',
      value: { success: true, data: { ...CHECK_SAMPLE, status: 'asked' } },
    },
    found: {
      summary: 'The payment is in the history',
      value: {
        success: true,
        data: {
          ...CHECK_SAMPLE,
          status: 'found',
          transactionId: '0f8b2c6e-3d41-4a57-9e0b-5c2f71a8d903',
        },
      },
    },
  },
);

export const RECEIPT_CHECK_ANSWERS = {
  create: {
    200: checkAnswer,
    ...refusals([
      REFUSED.validation,
      REFUSED.invalidJson,
      REFUSED.emptyBody,
      REFUSED.unsupportedMediaType,
      ...ACCESS_REFUSED,
      AUTH_REFUSED.crossSite,
      AUTH_REFUSED.csrf,
      refusal('Till and paybill payments are not set up (MPESA_C2B_SHORTCODE)', c2bNotSetUp()),
      refusal('This address asked too many checks this minute', tooManyChecks(42)),
      REFUSED.databaseUnavailable,
    ]),
  },
  byId: {
    200: checkAnswer,
    ...refusals([
      ...PATH_REFUSALS,
      ...ACCESS_REFUSED,
      AUTH_REFUSED.crossSite,
      refusal('No receipt check has this id', receiptCheckNotFound()),
      REFUSED.databaseUnavailable,
    ]),
  },
};
