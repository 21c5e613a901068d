/**
 * What a payment request (transactions.routes.ts) and the STK callback (stk-push.callback.ts) answer, and what the API description says
 * of them: the refusals and acknowledgements the handlers send, each route's summary, and its
 * answers' schemas with an example of each (openapi/responses.ts). Kept apart so that the
 * routes stay readable; they spread these into their schemas.
 */
import { AUTH_REFUSED } from '../operators/index.ts';
import {
  DEFAULT_DESCRIPTION,
  DEFAULT_REFERENCE,
  DESCRIPTION_MAX_LENGTH,
  MAX_AMOUNT,
  MIN_AMOUNT,
  REFERENCE_MAX_LENGTH,
} from '@mpesa/shared';
import { initiatePaymentResponseSchema } from '@mpesa/shared/contract';
import { answerNotRecorded, mpesaNoAnswer, tooManyRequests } from '../../errors.ts';
import { CALLBACK_ANSWERS } from '../../callbacks/callbacks.openapi.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';
import {
  REFUSED,
  answer,
  refusal,
  refusals,
  type DocumentedError,
} from '../../openapi/responses.ts';
import { SAMPLE, SAMPLE_CALLBACK } from './payments.examples.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import { busyPhoneError, payerErrorFor } from './initiation-errors.ts';
import { ACCOUNT_REFERENCE_MAX } from './daraja-text.ts';

/** Daraja's refusal of a push, as the payer reads it (initiation-errors.ts). */
const darajaRefused = (summary: string, errorCode: string, errorMessage: string) =>
  refusal(
    summary,
    payerErrorFor(
      new DarajaError('rejected', errorMessage, { httpStatus: 500, errorCode, errorMessage }),
      SAMPLE.transactionId,
    ),
  );

const now = new Date(SAMPLE.createdAt);
const inSeconds = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

/** The refusals only a payment request meets, by name. */
export const PAYMENT_REFUSED = {
  mpesaInvalidPhone: darajaRefused(
    'M-PESA refused the phone number (the failed payment is saved)',
    '400.002.02',
    'Bad Request - Invalid PhoneNumber',
  ),
  mpesaInvalidAmount: darajaRefused(
    'M-PESA refused the amount (the failed payment is saved)',
    '400.002.02',
    'Bad Request - Invalid Amount',
  ),
  phoneBusyOpen: refusal(
    'A prompt is still open on this phone',
    busyPhoneError(
      {
        status: 'pending',
        checkout_request_id: SAMPLE.checkoutRequestId,
        locked_until: inSeconds(60),
        push_outcome_unknown: 0,
      },
      now,
    ),
  ),
  phoneBusyCooldown: refusal(
    "The phone's last prompt has just ended: the cooldown between prompts has this long left",
    busyPhoneError(
      {
        status: 'success',
        checkout_request_id: SAMPLE.checkoutRequestId,
        locked_until: inSeconds(42),
        push_outcome_unknown: 0,
      },
      now,
    ),
  ),
  phoneBusyUnconfirmed: refusal(
    "M-PESA never confirmed the phone's last request, which may still prompt the payer",
    busyPhoneError(
      {
        status: 'pending',
        checkout_request_id: null,
        locked_until: inSeconds(42),
        push_outcome_unknown: 1,
      },
      now,
    ),
  ),
  phoneBusyAtMpesa: darajaRefused(
    'M-PESA says a transaction is already in process for this phone (the failed payment is saved)',
    '500.001.1001',
    'Unable to lock subscriber, a transaction is already in process for the current subscriber',
  ),
  mpesaRejected: darajaRefused(
    'M-PESA refused the push for another reason (the failed payment is saved)',
    '500.001.1001',
    'Merchant does not exist',
  ),
  mpesaBusy: darajaRefused(
    'M-PESA is over its limits or busy (the failed payment is saved)',
    '500.003.02',
    'System is busy. Please try again in few minutes.',
  ),
  mpesaUnreachable: refusal(
    'M-PESA could not be reached, so no prompt was sent (the failed payment is saved)',
    payerErrorFor(new DarajaError('unreachable', 'connect ECONNREFUSED'), SAMPLE.transactionId),
  ),
  answerNotRecorded: refusal(
    'The payment was saved and the push sent, but the database went away before M-PESA’s answer was recorded: the payment stays pending and is reconciled',
    answerNotRecorded(SAMPLE.transactionId),
  ),
  mpesaNoAnswer: refusal(
    'M-PESA did not answer in time: a prompt may still reach the phone; the payment stays pending and is reconciled',
    mpesaNoAnswer(SAMPLE.transactionId),
  ),
} satisfies Record<string, DocumentedError>;

/** The payment's fields, in words, from the rules the contract applies. */
const PAYMENT_FIELDS = [
  '- `phoneNumber`: a Kenyan mobile number, as 07…, 01…, 7…, 1…, 2547…, 2541… or +254…, spaces and dashes allowed.',
  `- \`amount\`: whole shillings, ${MIN_AMOUNT} to ${MAX_AMOUNT}, as a number or as text ("100").`,
  `- \`reference\`: at most ${REFERENCE_MAX_LENGTH} characters ("${DEFAULT_REFERENCE}" when empty or left out); M-PESA gets a plain copy of its first ${ACCOUNT_REFERENCE_MAX} characters, shown on the prompt.`,
  `- \`description\`: at most ${DESCRIPTION_MAX_LENGTH} characters ("${DEFAULT_DESCRIPTION}" when empty or left out).`,
].join('\n');

/** The payment request's body, described (for `initiatePaymentSchema.meta`). */
export const PAYMENT_BODY = {
  description: PAYMENT_FIELDS,
  // Named examples: zod leaves `examples` out of a transforming schema's input.
  'x-examples': {
    payment: {
      summary: 'A payment of 450 KES',
      value: {
        phoneNumber: '0712345678',
        amount: 450,
        reference: 'INV-1042',
        description: 'Order 1042',
      },
    },
  },
};

export const IDEMPOTENCY_KEY =
  `Any 1 to ${MAX_LENGTH.idempotencyKey} visible ASCII characters, new for each payment. The same ` +
  'request sent again with the same key (after a lost answer) gets the first answer back and ' +
  'sends no second prompt; a key is kept 24 hours.';

/** Each route's summary, description and tag. */
export const DESCRIBED = {
  stkpush: {
    summary: 'Start a payment: send an STK push prompt to the payer’s phone',
    description:
      'The payment is saved as `pending` before M-PESA is asked, then M-PESA sends the prompt. ' +
      'The answer comes once M-PESA has acknowledged the request; the outcome comes later, by ' +
      'callback: follow it with `GET /api/mpesa/transactions/{id}`.\n\n' +
      'Each address may send a limited number of payment requests a minute, and a phone gets one ' +
      'prompt at a time.',
    tags: ['Payments'],
  },
  callback: {
    summary: 'M-PESA’s result callback for a payment',
    description:
      'Daraja posts the STK callback here (docs/daraja-protocol.md §4): the body is stored as it arrived, ' +
      'whatever it holds, and applied to its payment. The path’s secret (MPESA_CALLBACK_SECRET) ' +
      'is what tells a genuine callback from a forged one; MPESA_CALLBACK_ALLOWED_IPS may also ' +
      'limit who may deliver.',
    tags: ['M-PESA callback'],
  },
};

/** Daraja's callback body, taken as text whatever it holds: described, never validated here. */
export const CALLBACK_BODY = {
  description: 'Daraja’s STK callback (docs/daraja-protocol.md §4.1)',
  examples: [SAMPLE_CALLBACK],
};

/** A prompt's 200, wherever one is asked for (here, and a payment link's payment). */
export const PAYMENT_ACCEPTED = answer(
  initiatePaymentResponseSchema,
  'M-PESA accepted the request and the prompt is on its way.',
  {
    accepted: {
      summary: 'Accepted by M-PESA',
      value: {
        success: true,
        message: 'STK Push initiated successfully',
        transactionId: SAMPLE.transactionId,
        checkoutRequestId: SAMPLE.checkoutRequestId,
        customerMessage: 'Success. Request accepted for processing',
      },
    },
  },
);

/** Each route's answers, by status. */
export const ANSWERS = {
  stkpush: {
    200: PAYMENT_ACCEPTED,
    ...refusals([
      REFUSED.validation,
      REFUSED.invalidJson,
      REFUSED.emptyBody,
      REFUSED.forbiddenKey,
      REFUSED.invalidIdempotencyKey,
      PAYMENT_REFUSED.mpesaInvalidPhone,
      PAYMENT_REFUSED.mpesaInvalidAmount,
      REFUSED.idempotencyKeyInUse,
      REFUSED.bodyTooLarge,
      REFUSED.unsupportedMediaType,
      REFUSED.idempotencyKeyReused,
      refusal(
        'This address sent too many requests of any kind (valid or not)',
        tooManyRequests(42),
      ),
      // HISTORY_ACCESS=operators: the shop's requests (a session or a key; features/operators/payment-access.ts).
      AUTH_REFUSED.keyInvalid,
      AUTH_REFUSED.roleNotAllowed,
      AUTH_REFUSED.scopeNotAllowed,
      AUTH_REFUSED.crossSite,
      REFUSED.rateLimited,
      PAYMENT_REFUSED.phoneBusyOpen,
      PAYMENT_REFUSED.phoneBusyCooldown,
      PAYMENT_REFUSED.phoneBusyUnconfirmed,
      PAYMENT_REFUSED.phoneBusyAtMpesa,
      PAYMENT_REFUSED.mpesaRejected,
      PAYMENT_REFUSED.mpesaBusy,
      PAYMENT_REFUSED.mpesaUnreachable,
      PAYMENT_REFUSED.mpesaNoAnswer,
      REFUSED.databaseUnavailable,
      PAYMENT_REFUSED.answerNotRecorded,
    ]),
  },
  callback: CALLBACK_ANSWERS,
};
