/** What the API keys' routes answer, described with examples (system/openapi-answers.ts). */
import {
  apiKeyListResponseSchema,
  apiKeyResponseSchema,
  createApiKeyResponseSchema,
  type ApiKey,
} from '@mpesa/shared/contract-admin';
import { apiKeyNotFound } from '../errors.ts';
import { ACCESS_REFUSED, AUTH_REFUSED } from '../operators/auth.answers.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../system/openapi-answers.ts';

const SAMPLE_KEY: ApiKey = {
  id: '01JDZ8Q4V7T3M2R9K5X1C6B0AA',
  name: 'Till reconciliation',
  scope: 'payments:read',
  prefix: 'mpk_q3Zr8Tnw',
  createdAt: '2026-11-25T09:00:00.000Z',
  createdBy: 'Amina',
  lastUsedAt: null,
  revokedAt: null,
};

const CHANGES = [AUTH_REFUSED.crossSite, AUTH_REFUSED.csrf];

export const KEYS_ANSWERS = {
  list: {
    200: answer(apiKeyListResponseSchema, 'Every key, newest first, revoked ones included.', {
      keys: { summary: 'One key', value: { success: true, data: { keys: [SAMPLE_KEY] } } },
    }),
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
          data: { key: { ...SAMPLE_KEY, revokedAt: '2026-11-26T10:00:00.000Z' } },
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
