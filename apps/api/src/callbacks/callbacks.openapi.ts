/**
 * What a callback route answers Daraja, and what the API description says of it: taken, refused on
 * the way in, or rejected (400), a body that is not the kind's, kept all the same. Every kind's
 * route answers alike; each kind says what its rejection reads.
 */
import { z } from 'zod';
import { callbackForbidden, databaseUnavailable } from '../errors.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../openapi/responses.ts';

/** What Daraja is told: its callback was taken, or was not an STK callback at all. */
export const CALLBACK_ACCEPTED = { ResultCode: 0, ResultDesc: 'Accepted' };
export const CALLBACK_REJECTED = { ResultCode: 1, ResultDesc: 'Rejected: not an STK callback' };
const callbackAnswerSchema = z.object({ ResultCode: z.number(), ResultDesc: z.string() });

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

/** The STK callback's answers, which the kinds with no rejection of their own describe too. */
export const CALLBACK_ANSWERS = callbackAnswers({
  summary: 'Not an STK callback (it is stored all the same)',
  value: CALLBACK_REJECTED,
});
