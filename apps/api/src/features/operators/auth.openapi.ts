/** What the sign-in routes answer, described with examples (openapi/responses.ts). */
import { z } from 'zod';
import { AppError } from '../../errors/app-error.ts';
import { CLIENT_MISTAKES } from '../../errors/client-mistakes.ts';
import {
  apiKeyInvalid,
  crossSiteRequest,
  roleNotAllowed,
  scopeNotAllowed,
  signInFailed,
  tooManySignIns,
  unauthenticated,
} from '../../errors/refusals.ts';
import { REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';
import {
  csrfResponseSchema,
  operatorResponseSchema,
  signInResponseSchema,
} from '@mpesa/shared/contract-auth';

export { signInBodySchema } from '@mpesa/shared/contract-auth';

const SAMPLE_OPERATOR = { name: 'Amina', role: 'owner' } as const;

/** @fastify/csrf-protection's refusal, as answerError words it (errors/client-mistakes.ts). */
function csrfRefusal(): AppError {
  const known = CLIENT_MISTAKES.FST_CSRF_INVALID_TOKEN;
  if (!known) throw new Error('errors/client-mistakes.ts has no answer for FST_CSRF_INVALID_TOKEN');
  return new AppError(known.statusCode, known.code, known.message);
}

/** The refusals of a request without a valid session, and of a role below the route's. */
export const AUTH_REFUSED = {
  unauthenticated: refusal(
    'No valid session (none, expired, revoked or signed out): sign in (HISTORY_ACCESS=operators)',
    unauthenticated(),
  ),
  roleNotAllowed: refusal('The operator’s role does not allow this', roleNotAllowed()),
  crossSite: refusal('Sent by a page on another site (Origin, Sec-Fetch-Site)', crossSiteRequest()),
  csrf: refusal('No X-CSRF-Token header, or not the one GET /api/auth/csrf gave', csrfRefusal()),
  signInFailed: refusal('The name or the password is wrong (never said which)', signInFailed()),
  tooManySignIns: refusal(
    'Too many failed sign-ins from this network (for this name, or for any), or for this name ' +
      'from everywhere and this network is not one the operator has signed in from',
    tooManySignIns(600),
  ),
  keyInvalid: refusal('An API key that is not valid (unknown or revoked)', apiKeyInvalid()),
  scopeNotAllowed: refusal('The API key’s scope does not allow this', scopeNotAllowed()),
};

/** A guarded route's refusals: no valid session or key, too low a role, a key of another scope. */
export const ACCESS_REFUSED = [
  AUTH_REFUSED.unauthenticated,
  AUTH_REFUSED.keyInvalid,
  AUTH_REFUSED.roleNotAllowed,
  AUTH_REFUSED.scopeNotAllowed,
];

/**
 * A signed-in operator's change's refusals: no valid session, too low a role, sent from another
 * site, or without the CSRF token.
 */
export const CHANGE_REFUSED = [
  AUTH_REFUSED.unauthenticated,
  AUTH_REFUSED.roleNotAllowed,
  AUTH_REFUSED.crossSite,
  AUTH_REFUSED.csrf,
];

export const AUTH_ANSWERS = {
  signIn: {
    200: answer(
      signInResponseSchema,
      'Signed in: the session cookie is set. `failedAttempts` counts the wrong passwords typed ' +
        'for this name, from any address, since the operator last signed in.',
      {
        signedIn: {
          summary: 'Signed in',
          value: { success: true, data: { ...SAMPLE_OPERATOR, failedAttempts: 0 } },
        },
        guessedAt: {
          summary: 'Signed in after 3 wrong passwords for the name',
          value: { success: true, data: { ...SAMPLE_OPERATOR, failedAttempts: 3 } },
        },
      },
    ),
    ...refusals([
      REFUSED.validation,
      AUTH_REFUSED.signInFailed,
      AUTH_REFUSED.crossSite,
      AUTH_REFUSED.tooManySignIns,
      REFUSED.databaseUnavailable,
    ]),
  },
  signOut: {
    200: answer(
      z.object({ success: z.literal(true), data: z.object({ signedOut: z.literal(true) }) }),
      'Signed out: the session is revoked for every instance, and the cookie cleared.',
      { signedOut: { summary: 'Signed out', value: { success: true, data: { signedOut: true } } } },
    ),
    ...refusals([
      AUTH_REFUSED.unauthenticated,
      AUTH_REFUSED.crossSite,
      AUTH_REFUSED.csrf,
      REFUSED.databaseUnavailable,
    ]),
  },
  me: {
    200: answer(operatorResponseSchema, 'The operator signed in.', {
      me: { summary: 'Signed in', value: { success: true, data: SAMPLE_OPERATOR } },
    }),
    ...refusals([AUTH_REFUSED.unauthenticated, REFUSED.databaseUnavailable]),
  },
  csrf: {
    200: answer(
      csrfResponseSchema,
      'A token to send as X-CSRF-Token with each state-changing request (its secret is set as a cookie).',
      { token: { summary: 'A token', value: { success: true, data: { token: 'k1Xb…' } } } },
    ),
    ...refusals([]),
  },
};
