/** What the webhook routes answer, described with examples (openapi/responses.ts). */
import {
  webhookDeliveryListResponseSchema,
  webhookDeliveryResponseSchema,
  webhookEndpointListResponseSchema,
  webhookEndpointRemovedResponseSchema,
  webhookEndpointResponseSchema,
  webhookResendFailedResponseSchema,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@mpesa/shared/contract-webhooks';
import {
  webhookDeliveryNotFound,
  webhookEndpointNotFound,
  webhookEndpointsLimit,
  webhookUrlRefused,
} from './webhook-refusals.ts';
import { ACCESS_REFUSED, AUTH_REFUSED } from '../operators/index.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';

const SAMPLE_ENDPOINT: WebhookEndpoint = {
  id: '01JDZ8Q4V7T3M2R9K5X1C6B0WH',
  url: 'https://shop.example/mpesa-events',
  events: ['payment.succeeded', 'payment.refunded'],
  secretPrefix: 'whsec_Q3zR8T',
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  createdBy: 'Amina',
  createdAt: '2026-11-27T09:00:00.000Z',
  updatedAt: '2026-11-27T09:00:00.000Z',
};

const SAMPLE_DELIVERY: WebhookDelivery = {
  id: '01JDZ9A1B2C3D4E5F6G7H8J9KM',
  eventId: 'evt_01JDZ9A1B2C3D4E5F6G7H8J9KA',
  eventType: 'payment.succeeded',
  transactionId: '0b9e4c1e-3c55-4a53-9d1c-6a1f0f2a7c11',
  createdAt: '2026-11-27T10:15:00.000Z',
  state: 'delivered',
  attempts: 1,
  lastAttemptAt: '2026-11-27T10:15:01.000Z',
  lastStatus: 200,
  lastDurationMs: 84,
  lastResponse: '{"received":true}',
  lastError: null,
  nextAttemptAt: null,
  deliveredAt: '2026-11-27T10:15:01.000Z',
  gaveUpAt: null,
};

const CHANGES = [AUTH_REFUSED.crossSite, AUTH_REFUSED.csrf];
const ENDPOINT_NOT_FOUND = refusal('No endpoint has this id', webhookEndpointNotFound());
const URL_REFUSED = refusal(
  'The URL is not one webhooks may be sent to (its form, https in production, a private address)',
  webhookUrlRefused(
    'The address 10.0.0.5 is on this machine or a private network, where webhooks are not sent (WEBHOOK_ALLOW_PRIVATE_URLS).',
  ),
);
const ON_ENDPOINT = [
  ...PATH_REFUSALS,
  ENDPOINT_NOT_FOUND,
  ...ACCESS_REFUSED,
  ...CHANGES,
  REFUSED.databaseUnavailable,
];

const endpointAnswer = (description: string, secret: boolean) =>
  answer(webhookEndpointResponseSchema, description, {
    endpoint: {
      summary: secret ? 'The endpoint and its secret' : 'The endpoint',
      value: {
        success: true,
        data: {
          endpoint: SAMPLE_ENDPOINT,
          ...(secret ? { secret: 'whsec_Q3zR8T…' } : {}),
        },
      },
    },
  });

const deliveryAnswer = (description: string) =>
  answer(webhookDeliveryResponseSchema, description, {
    delivery: {
      summary: 'The delivery, due now',
      value: {
        success: true,
        data: {
          delivery: {
            ...SAMPLE_DELIVERY,
            state: 'retrying',
            nextAttemptAt: '2026-11-27T11:00:00.000Z',
            deliveredAt: null,
          },
        },
      },
    },
  });

export const WEBHOOKS_ANSWERS = {
  list: {
    200: answer(webhookEndpointListResponseSchema, 'Every endpoint, oldest first.', {
      endpoints: {
        summary: 'One endpoint',
        value: { success: true, data: { endpoints: [SAMPLE_ENDPOINT] } },
      },
    }),
    ...refusals([...ACCESS_REFUSED, REFUSED.databaseUnavailable]),
  },
  create: {
    201: endpointAnswer(
      'The endpoint, and its signing secret in `secret`: shown this once, never again.',
      true,
    ),
    ...refusals([
      REFUSED.validation,
      URL_REFUSED,
      refusal('The shop has as many endpoints as it may', webhookEndpointsLimit()),
      ...ACCESS_REFUSED,
      ...CHANGES,
      REFUSED.databaseUnavailable,
    ]),
  },
  change: {
    200: endpointAnswer(
      'The endpoint as changed; with `rotateSecret`, its new secret in `secret` (shown this once).',
      true,
    ),
    ...refusals([REFUSED.validation, URL_REFUSED, ...ON_ENDPOINT]),
  },
  remove: {
    200: answer(webhookEndpointRemovedResponseSchema, 'Removed, with its deliveries.', {
      removed: { summary: 'Removed', value: { success: true, data: { removed: true } } },
    }),
    ...refusals(ON_ENDPOINT),
  },
  deliveries: {
    200: answer(
      webhookDeliveryListResponseSchema,
      'The endpoint’s deliveries, newest first; `nextCursor` asks for the next page.',
      {
        deliveries: {
          summary: 'One delivery',
          value: { success: true, data: { deliveries: [SAMPLE_DELIVERY], nextCursor: null } },
        },
      },
    ),
    ...refusals([
      ...PATH_REFUSALS,
      REFUSED.validation,
      REFUSED.invalidCursor,
      ENDPOINT_NOT_FOUND,
      ...ACCESS_REFUSED,
      REFUSED.databaseUnavailable,
    ]),
  },
  resend: {
    200: deliveryAnswer('The delivery, due again now: sent within moments.'),
    ...refusals([
      ...PATH_REFUSALS,
      refusal('No delivery has this id', webhookDeliveryNotFound()),
      ...ACCESS_REFUSED,
      ...CHANGES,
      REFUSED.databaseUnavailable,
    ]),
  },
  resendFailed: {
    200: answer(
      webhookResendFailedResponseSchema,
      'How many given-up deliveries are due again now.',
      { resent: { summary: 'Three resent', value: { success: true, data: { resent: 3 } } } },
    ),
    ...refusals(ON_ENDPOINT),
  },
  test: {
    201: deliveryAnswer('A `webhook.test` event to this endpoint only, and its delivery.'),
    ...refusals(ON_ENDPOINT),
  },
};
