/** The webhooks' table types (migration 012, docs/webhooks.md), kept apart from schema.ts for size. */
import type { Generated, Selectable } from 'kysely';
import type { WebhookDisabledReason, WebhookSentType } from '@mpesa/shared/contract-webhooks';

/** Where the shop's own systems hear of payments. */
export interface WebhookEndpointTable {
  id: string;
  url: string;
  /** The event types it wants, as a JSON array. */
  events: string;
  /**
   * `whsec_…`, kept as made: an HMAC is signed with the secret itself, so a hash (as API keys are
   * kept) could not sign. Shown once, when made or rotated; only its prefix afterwards.
   */
  secret: string;
  /** 1 or 0 (the same integer on both databases). */
  enabled: number;
  disabled_reason: WebhookDisabledReason | null;
  disabled_at: string | null;
  /** Since when every delivery has failed; cleared by one delivered. */
  failing_since: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** The outbox: one event, its exact body as it is sent. */
export interface WebhookEventTable {
  id: string;
  type: WebhookSentType;
  transaction_id: string | null;
  body: string;
  created_at: string;
}

/** One event to one endpoint: its schedule, its lease, its last attempt. */
export interface WebhookDeliveryTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  created_at: string;
  attempts: Generated<number>;
  /** When it is next due; null once delivered or given up. */
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  last_attempt_at: string | null;
  last_status: number | null;
  last_duration_ms: number | null;
  last_response: string | null;
  last_error: string | null;
  delivered_at: string | null;
  gave_up_at: string | null;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type WebhookEventRow = Selectable<WebhookEventTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
