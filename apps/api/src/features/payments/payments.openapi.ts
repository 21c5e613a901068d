/**
 * What the transactions routes (transactions.routes.ts) answer, and what the API description says
 * of them: the refusals and acknowledgements the handlers send, each route's summary, and its
 * answers' schemas with an example of each (openapi/responses.ts). Kept apart so that the
 * routes stay readable; they spread these into their schemas.
 */
import { ACCESS_REFUSED, AUTH_REFUSED } from '../operators/auth.openapi.ts';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import {
  DEFAULT_DESCRIPTION,
  DEFAULT_REFERENCE,
  DESCRIPTION_MAX_LENGTH,
  MAX_AMOUNT,
  MIN_AMOUNT,
  REFERENCE_MAX_LENGTH,
} from '@mpesa/shared';
import {
  initiatePaymentResponseSchema,
  summaryResponseSchema,
  transactionListResponseSchema,
  transactionResponseSchema,
} from '@mpesa/shared/contract';
import { callbackForbidden, databaseUnavailable, tooManyRequests } from '../../errors.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';
import { SAMPLE, SAMPLE_CALLBACK, SAMPLE_CSV, SAMPLE_SUMMARY } from '../../openapi/examples.ts';
import { ACCOUNT_REFERENCE_MAX } from './daraja-text.ts';

/** What Daraja is told: its callback was taken, or was not an STK callback at all. */
export const CALLBACK_ACCEPTED = { ResultCode: 0, ResultDesc: 'Accepted' };
export const CALLBACK_REJECTED = { ResultCode: 1, ResultDesc: 'Rejected: not an STK callback' };
const callbackAnswerSchema = z.object({ ResultCode: z.number(), ResultDesc: z.string() });

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
  list: {
    summary: 'List payments, newest first, a page at a time',
    description:
      'Filters: `status` (one or several, repeated or comma-separated), `from` and `to` (business ' +
      'days, both included), `q` (a phone number in any accepted form, a receipt, or the start ' +
      'of a reference). Pass `nextCursor` back as `cursor` for the next page.',
    tags: ['History'],
  },
  summary: {
    summary: 'The figures at a glance: today, the last 7 business days, and 14 days by status',
    tags: ['History'],
  },
  export: {
    summary: 'Download the selected payments as CSV',
    description:
      'The same filters as the list; every payment they select, newest first, streamed, as a ' +
      'spreadsheet reads it: UTF-8 with a byte-order mark, headers in words, times as ' +
      '`2026-11-25 12:20:47` in the business time zone (named in the header), phone numbers as ' +
      '`="254712345678"` (text, not a number). A cell a spreadsheet would otherwise run as a ' +
      "formula starts with `'`. The file name says the filter: " +
      '`payments-success-2026-11-01-to-2026-11-25.csv`, `payments-all-<today>.csv`.',
    tags: ['History'],
  },
  byId: {
    summary: 'One payment, with its status',
    description:
      'While it is `pending`, ask again every few seconds: the status changes once M-PESA reports. ' +
      'With `HISTORY_ACCESS=operators`, a request with no session and no key that reads payments ' +
      'gets the payer’s view (`view: "payer"`): the number only in part (`0712 ••• 678`), no ' +
      'payer’s name and no `checkoutRequestId` (it ends with the number).',
    tags: ['History'],
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

/** Each route's answers, by status. */
export const ANSWERS = {
  stkpush: {
    200: answer(
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
    ),
    ...refusals([
      REFUSED.validation,
      REFUSED.invalidJson,
      REFUSED.emptyBody,
      REFUSED.forbiddenKey,
      REFUSED.invalidIdempotencyKey,
      REFUSED.mpesaInvalidPhone,
      REFUSED.mpesaInvalidAmount,
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
      REFUSED.phoneBusyOpen,
      REFUSED.phoneBusyCooldown,
      REFUSED.phoneBusyUnconfirmed,
      REFUSED.phoneBusyAtMpesa,
      REFUSED.mpesaRejected,
      REFUSED.mpesaBusy,
      REFUSED.mpesaUnreachable,
      REFUSED.mpesaNoAnswer,
      REFUSED.databaseUnavailable,
      REFUSED.answerNotRecorded,
    ]),
  },
  list: {
    200: answer(transactionListResponseSchema, 'A page of payments.', {
      page: {
        summary: 'The last page (no cursor to go on with)',
        value: { success: true, data: [SAMPLE.paid], nextCursor: null },
      },
    }),
    ...refusals([
      REFUSED.validation,
      REFUSED.invalidCursor,
      ...ACCESS_REFUSED,
      REFUSED.databaseUnavailable,
    ]),
  },
  summary: {
    200: answer(summaryResponseSchema, 'The figures, in business days.', {
      summary: {
        summary: 'A business with one payment today',
        value: { success: true, data: SAMPLE_SUMMARY },
      },
    }),
    ...refusals([...ACCESS_REFUSED, REFUSED.databaseUnavailable]),
  },
  export: {
    200: {
      description: 'The payments as CSV (RFC 4180), as an attachment.',
      content: {
        'text/csv': {
          // A stream of text, which Fastify sends as it is (no serializer): described as the
          // string it makes.
          schema: z.custom<Readable>().meta({ type: 'string', examples: [SAMPLE_CSV] }),
        },
      },
    },
    ...refusals([
      REFUSED.validation,
      REFUSED.tooManyExports,
      ...ACCESS_REFUSED,
      REFUSED.databaseUnavailable,
    ]),
  },
  byId: {
    200: answer(transactionResponseSchema, 'The payment.', {
      paid: { summary: 'Paid', value: { success: true, data: SAMPLE.paid } },
      pending: { summary: 'Waiting for the payer', value: { success: true, data: SAMPLE.pending } },
    }),
    ...refusals([...PATH_REFUSALS, REFUSED.transactionNotFound, REFUSED.databaseUnavailable]),
  },
  callback: callbackAnswers({
    summary: 'Not an STK callback (it is stored all the same)',
    value: CALLBACK_REJECTED,
  }),
};

/**
 * What a callback route answers (the STK callback's, and a Result's: refunds/): taken, refused on
 * the way in, or `rejected` (400), a body that is not the kind's, kept all the same.
 */
export function callbackAnswers(rejected: { summary: string; value: typeof CALLBACK_REJECTED }) {
  return {
    200: answer(callbackAnswerSchema, 'Taken: stored and applied, or recognised as a duplicate.', {
      accepted: { summary: 'Taken', value: CALLBACK_ACCEPTED },
    }),
    ...refusals(
      [
        ...PATH_REFUSALS,
        refusal('The sender is not on MPESA_CALLBACK_ALLOWED_IPS', callbackForbidden()),
        REFUSED.callbackNotFound,
        REFUSED.bodyTooLarge,
        REFUSED.unsupportedMediaType,
        refusal(
          'The callback could not be kept (the database is unavailable): not accepted, so that it is not taken for delivered',
          databaseUnavailable(),
        ),
      ],
      { 400: { schema: callbackAnswerSchema, examples: { rejected } } },
    ),
  };
}
