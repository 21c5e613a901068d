/**
 * The HTTP contract of webhooks (docs/webhooks.md): the events the shop's own systems can
 * hear of, the body each is sent with, and the owner's routes that manage endpoints and show their
 * deliveries. The web app imports only its types.
 */
import { z } from 'zod';
import { transactionSchema } from './contract.ts';
import { payoutSchema } from './contract-payouts.ts';

const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/**
 * What an endpoint can ask to hear of: a payment's outcome, a refund, a till or paybill payment,
 * a payout's outcome, a payment link paid.
 */
export const WEBHOOK_EVENT_TYPES = [
  'payment.succeeded',
  'payment.failed',
  'payment.cancelled',
  'payment.timed_out',
  'payment.unknown',
  'payment.flagged',
  'payment.refunded',
  'payment.received',
  'payout.succeeded',
  'payout.failed',
  'link.paid',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent to one endpoint when its owner asks for a test (never subscribed to). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export type WebhookSentType = WebhookEventType | typeof WEBHOOK_TEST_EVENT;

/** Why an endpoint is disabled: its owner did, or its deliveries failed for days. */
export const WEBHOOK_DISABLED_REASONS = ['owner', 'failing'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/** A delivery's state: not tried yet, failed and to be tried again, delivered, or given up. */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'retrying', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** The longest URL an endpoint may have. */
export const WEBHOOK_URL_MAX_LENGTH = 2000;
/** The most endpoints a shop may have: each event is sent to every one that wants it. */
export const WEBHOOK_ENDPOINTS_MAX = 20;

/**
 * The body POSTed to an endpoint, as Stripe's events are: a stable `id` (`evt_…`) to de-duplicate
 * on, the `type`, `created` in Unix seconds, and the payment as `GET /api/mpesa/transactions/:id`
 * shows it to the merchant (a `payout.*` event: the payout as `GET /api/payouts/:id` shows it).
 */
export const webhookEventBodySchema = /* @__PURE__ */ z.object({
  id: z.string(),
  type: z.string(),
  created: z.number().int(),
  data: z.union([z.object({ payment: transactionSchema }), z.object({ payout: payoutSchema })]),
});
export type WebhookEventBody = z.infer<typeof webhookEventBodySchema>;

export const webhookEndpointSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  /** The secret's first characters, to tell secrets apart; the secret itself is shown once. */
  secretPrefix: z.string(),
  enabled: z.boolean(),
  disabledReason: z.enum(WEBHOOK_DISABLED_REASONS).nullable(),
  disabledAt: z.string().nullable(),
  /** Since when every delivery has failed (null: the last one was delivered, or none was tried). */
  failingSince: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

const urlField = z
  .string()
  .trim()
  .min(1, { error: 'Enter the URL the events are sent to.' })
  .max(WEBHOOK_URL_MAX_LENGTH, {
    error: `The URL must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.`,
  });
const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, { error: 'Choose at least one event to send.' })
  .max(WEBHOOK_EVENT_TYPES.length);

/** A new endpoint: its URL, and the events it hears of (every one when left out). */
export const createWebhookEndpointBodySchema = /* @__PURE__ */ z.object({
  url: urlField,
  events: eventsField.default([...WEBHOOK_EVENT_TYPES]),
});
export type CreateWebhookEndpointBody = z.infer<typeof createWebhookEndpointBodySchema>;

/** A change: any of the URL, the events, and whether it is enabled; `rotateSecret` makes a new secret. */
export const changeWebhookEndpointBodySchema = /* @__PURE__ */ z.object({
  url: urlField.optional(),
  events: eventsField.optional(),
  enabled: z.boolean().optional(),
  rotateSecret: z.literal(true).optional(),
});
export type ChangeWebhookEndpointBody = z.infer<typeof changeWebhookEndpointBodySchema>;

export const webhookEndpointListResponseSchema = /* @__PURE__ */ ok(
  z.object({ endpoints: z.array(webhookEndpointSchema) }),
);
export type WebhookEndpointListResponse = z.infer<typeof webhookEndpointListResponseSchema>;

/** The endpoint, and its secret (`whsec_…`) when it was just made: shown this once. */
export const webhookEndpointResponseSchema = /* @__PURE__ */ ok(
  z.object({ endpoint: webhookEndpointSchema, secret: z.string().optional() }),
);
export type WebhookEndpointResponse = z.infer<typeof webhookEndpointResponseSchema>;

export const webhookEndpointRemovedResponseSchema = /* @__PURE__ */ ok(
  z.object({ removed: z.literal(true) }),
);

/** One delivery of one event to one endpoint, with its last attempt. */
export const webhookDeliverySchema = /* @__PURE__ */ z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  /** The payment the event is about (null for a test event). */
  transactionId: z.string().nullable(),
  createdAt: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().int(),
  lastAttemptAt: z.string().nullable(),
  /** The HTTP status the endpoint answered (null: no answer, `lastError` says why). */
  lastStatus: z.number().int().nullable(),
  lastDurationMs: z.number().int().nullable(),
  /** The start of the endpoint's answer. */
  lastResponse: z.string().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  gaveUpAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesQuerySchema = /* @__PURE__ */ z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const webhookDeliveryListResponseSchema = /* @__PURE__ */ ok(
  z.object({ deliveries: z.array(webhookDeliverySchema), nextCursor: z.string().nullable() }),
);
export type WebhookDeliveryListResponse = z.infer<typeof webhookDeliveryListResponseSchema>;

export const webhookDeliveryResponseSchema = /* @__PURE__ */ ok(
  z.object({ delivery: webhookDeliverySchema }),
);
export const webhookResendFailedResponseSchema = /* @__PURE__ */ ok(
  z.object({ resent: z.number().int() }),
);
