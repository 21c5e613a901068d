/** Test data for webhooks: an endpoint and a delivery, written straight to the database. */
import type { Kysely } from 'kysely';
import type { WebhookEventType } from '@mpesa/shared/contract-webhooks';
import type { Database } from '../db/schema.ts';
import type { WebhookEndpointRow } from '../db/webhook-tables.ts';
import { transact } from '../db/transact.ts';
import { sortableId } from '../lib/sortable-id.ts';
import { enqueueTestEvent } from '../features/webhooks/outbox.ts';
import { newSecret } from '../features/webhooks/signature.ts';
import * as repo from '../features/webhooks/webhooks.repository.ts';

export async function anEndpoint(
  db: Kysely<Database>,
  overrides: Partial<WebhookEndpointRow> & { eventTypes?: WebhookEventType[] } = {},
): Promise<WebhookEndpointRow> {
  const { eventTypes = ['payment.succeeded'], ...rest } = overrides;
  const at = '2026-11-25T09:00:00.000Z';
  const row: WebhookEndpointRow = {
    id: sortableId(),
    url: 'http://127.0.0.1:9/events',
    events: JSON.stringify(eventTypes),
    secret: newSecret(),
    enabled: 1,
    disabled_reason: null,
    disabled_at: null,
    failing_since: null,
    created_by: 'Amina',
    created_at: at,
    updated_at: at,
    ...rest,
  };
  await repo.insertEndpoint(db, row);
  return row;
}

/** A test event's delivery to a new endpoint; its id. */
export async function aDelivery(db: Kysely<Database>): Promise<string> {
  const endpoint = await anEndpoint(db);
  const eventId = await transact(db, (trx) => enqueueTestEvent(trx, endpoint, new Date()));
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return row.id;
}
