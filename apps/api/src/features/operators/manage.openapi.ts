/** What the owner's operator routes and the one-time link answer, described with examples. */
import {
  addOperatorResponseSchema,
  operatorListResponseSchema,
  operatorRemovedResponseSchema,
  operatorResponseEntrySchema,
  passwordLinkResponseSchema,
  setPasswordResponseSchema,
} from '@mpesa/shared/contract-admin';
import { tooManySignIns, validationError } from '../../errors.ts';
import {
  lastOwner,
  operatorExists,
  operatorNotFound,
  passwordLinkInvalid,
} from './owner-refusals.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';
import { AUTH_REFUSED } from './auth.openapi.ts';
import { OperatorError } from './operators.service.ts';
import { PASSWORD_MAX, PASSWORD_MIN, passwordProblem } from '../../lib/password.ts';

const OPERATOR = {
  name: 'Otieno',
  role: 'cashier',
  createdAt: '2026-11-25T09:00:00.000Z',
  passwordSet: true,
  you: false,
} as const;
const LINK = {
  name: 'Otieno',
  path: '/set-password#3q2-7wEjV0m1k8x0f9YtH6Qw4p2sJdL5nR7uZcA1bEo',
  expiresAt: '2026-11-26T09:00:00.000Z',
};

/** The service's refusal in our error shape (OperatorError says which). */
export function operatorRefusal(error: unknown): unknown {
  if (!(error instanceof OperatorError)) return error;
  switch (error.kind) {
    case 'name':
    case 'password':
      return validationError(error.message, error.kind);
    case 'exists':
      return operatorExists(error.message);
    case 'not_found':
      return operatorNotFound(error.message);
    case 'last_owner':
      return lastOwner();
  }
}

const MANAGE_REFUSED = {
  name: refusal(
    'The name is empty, too long, has control or invisible characters, no letter or digit, or mixes scripts',
    validationError(
      'The name mixes Latin letters with Cyrillic or Greek ones, which can look like another name: type it in one alphabet.',
      'name',
    ),
  ),
  exists: refusal(
    'Another operator has this name, or one that looks the same',
    operatorExists('An operator named Otieno already exists.'),
  ),
  notFound: refusal('No operator has this name', operatorNotFound('No operator is named Zed.')),
  lastOwner: refusal('It would leave the shop without an owner', lastOwner()),
};

/** Every owner's route: no session, not an owner. */
const OWNERS_ONLY = [AUTH_REFUSED.unauthenticated, AUTH_REFUSED.roleNotAllowed];
/** And a state change's: sent by another site, or without the CSRF token. */
const CHANGE = [...OWNERS_ONLY, AUTH_REFUSED.crossSite, AUTH_REFUSED.csrf];

export const MANAGE_ANSWERS = {
  list: {
    200: answer(operatorListResponseSchema, 'Every operator, by name.', {
      list: { summary: 'Two operators', value: { success: true, data: { operators: [OPERATOR] } } },
    }),
    ...refusals([...OWNERS_ONLY, REFUSED.databaseUnavailable]),
  },
  add: {
    201: answer(addOperatorResponseSchema, 'Added: hand them the one-time link.', {
      added: {
        summary: 'Added, with their first link',
        value: {
          success: true,
          data: { operator: { ...OPERATOR, passwordSet: false }, link: LINK },
        },
      },
    }),
    ...refusals([
      ...CHANGE,
      REFUSED.validation,
      MANAGE_REFUSED.name,
      MANAGE_REFUSED.exists,
      REFUSED.databaseUnavailable,
    ]),
  },
  changeRole: {
    200: answer(operatorResponseEntrySchema, 'The operator with their new role.', {
      changed: { summary: 'Now a cashier', value: { success: true, data: { operator: OPERATOR } } },
    }),
    ...refusals([
      ...CHANGE,
      ...PATH_REFUSALS,
      REFUSED.validation,
      MANAGE_REFUSED.notFound,
      MANAGE_REFUSED.lastOwner,
      REFUSED.databaseUnavailable,
    ]),
  },
  remove: {
    200: answer(operatorRemovedResponseSchema, 'Removed; their sessions are ended.', {
      removed: { summary: 'Removed', value: { success: true, data: { removed: true } } },
    }),
    ...refusals([
      ...CHANGE,
      ...PATH_REFUSALS,
      MANAGE_REFUSED.notFound,
      MANAGE_REFUSED.lastOwner,
      REFUSED.databaseUnavailable,
    ]),
  },
  link: {
    200: answer(passwordLinkResponseSchema, 'A new link; any earlier one no longer works.', {
      link: { summary: 'A new link', value: { success: true, data: { link: LINK } } },
    }),
    ...refusals([
      ...CHANGE,
      ...PATH_REFUSALS,
      MANAGE_REFUSED.notFound,
      REFUSED.databaseUnavailable,
    ]),
  },
  setPassword: {
    200: answer(setPasswordResponseSchema, 'The password is set; every earlier session ended.', {
      set: { summary: 'Set', value: { success: true, data: { name: 'Otieno' } } },
    }),
    ...refusals([
      REFUSED.validation,
      refusal(
        `The password is not ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long`,
        validationError(passwordProblem('') ?? '', 'password'),
      ),
      refusal('The link is unknown, used or expired (never said which)', passwordLinkInvalid()),
      AUTH_REFUSED.crossSite,
      refusal('Too many attempts from this network', tooManySignIns(600)),
      REFUSED.databaseUnavailable,
    ]),
  },
};
