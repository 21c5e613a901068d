/** What the API keys' routes answer, described with examples (openapi/responses.ts). */
import {
  apiKeyListResponseSchema,
  apiKeyResponseSchema,
  createApiKeyResponseSchema,
  type ApiKey,
} from '@mpesa/shared/contract-admin';
import { apiKeyNotFound } from '../../../errors.ts';
import { ACCESS_REFUSED, AUTH_REFUSED } from '../auth.openapi.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../../openapi/responses.ts';

const SAMPLE_KEY: ApiKey = {
  id: '01JDZ8Q4V7T3M2R9K5X1C6B0AA',
  name: 'Till reconciliation',
  scope: 'payments:read',
  prefix: 'mpk_q3Zr8Tnw',
  createdAt: '2026-11-25T09:00:00.000Z',
  createdBy: 'Amina',
  lastUsedAt: null,
  revokedAt: null,
  revokedReason: null,
  revokedBy: null,
};

/** A key that ended with its maker: Baraka made it, and Amina removed Baraka. */
const ENDED_KEY: ApiKey = {
  ...SAMPLE_KEY,
  id: '01JDZ8Q4V7T3M2R9K5X1C6B0AB',
  name: 'Accounts export',
  prefix: 'mpk_X9aLp2Qe',
  createdBy: 'Baraka',
  revokedAt: '2026-11-26T10:00:00.000Z',
  revokedReason: 'maker_removed',
  revokedBy: 'Amina',
};

/**
 * What `webhooks:manage` amounts to: the endpoints such a key adds hear every payment,
 * with the payer's full phone number, so it reads payments as `payments:read` does. Said wherever
 * the API reference describes the scopes.
 */
export const WEBHOOKS_SCOPE_WARNING =
  'A `webhooks:manage` key reads payments too: the endpoints it adds receive every payment’s ' +
  'events, with the payer’s full phone number, as `payments:read` shows them. Give it only to a ' +
  'system you would trust with `payments:read`.';

const CHANGES = [AUTH_REFUSED.crossSite, AUTH_REFUSED.csrf];

export const KEYS_ANSWERS = {
  list: {
    200: answer(
      apiKeyListResponseSchema,
      'Every key, newest first, revoked ones included, each with who made it (`createdBy`) and, ' +
        'once revoked, why (`revokedReason`: `owner`, or `maker_removed` / `maker_not_owner` when ' +
        'it ended with its maker) and by whom (`revokedBy`: null for the server’s command line).',
      {
        keys: {
          summary: 'A live key, and one that ended with its maker',
          value: { success: true, data: { keys: [SAMPLE_KEY, ENDED_KEY] } },
        },
      },
    ),
    ...refusals([...ACCESS_REFUSED, REFUSED.databaseUnavailable]),
  },
  create: {
    201: answer(
      createApiKeyResponseSchema,
      'The key, in `secret`: shown this once, never again (only its hash is kept).',
      {
        created: {
          summary: 'A new key',
          value: {
            success: true,
            data: { key: SAMPLE_KEY, secret: 'mpk_q3Zr8Tnw…' },
          },
        },
      },
    ),
    ...refusals([REFUSED.validation, ...ACCESS_REFUSED, ...CHANGES, REFUSED.databaseUnavailable]),
  },
  revoke: {
    200: answer(apiKeyResponseSchema, 'The key, revoked: every instance refuses it at once.', {
      revoked: {
        summary: 'Revoked',
        value: {
          success: true,
          data: {
            key: {
              ...SAMPLE_KEY,
              revokedAt: '2026-11-26T10:00:00.000Z',
              revokedReason: 'owner',
              revokedBy: 'Amina',
            },
          },
        },
      },
    }),
    ...refusals([
      ...PATH_REFUSALS,
      refusal('No key has this id', apiKeyNotFound()),
      ...ACCESS_REFUSED,
      ...CHANGES,
      REFUSED.databaseUnavailable,
    ]),
  },
};
