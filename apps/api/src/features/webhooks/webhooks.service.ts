/**
 * The owner's management of webhook endpoints and their deliveries (docs/webhooks.md): the rules,
 * each change written with its audit line in one transaction. HTTP is in webhooks.routes.ts.
 */
import type { Kysely } from 'kysely';
import {
  WEBHOOK_ENDPOINTS_MAX,
  type ChangeWebhookEndpointBody,
  type CreateWebhookEndpointBody,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@mpesa/shared/contract-webhooks';
import type { AuditAction, AuditActorKind } from '@mpesa/shared/contract-admin';
import type { Database } from '../../db/schema.ts';
import type { WebhookEndpointRow } from '../../db/webhook-tables.ts';
import { recordAudit } from '../../audit/audit.ts';
import { auditDetail } from '../../audit/audit-details.ts';
import { transact } from '../../db/transact.ts';
import {
  webhookDeliveryNotFound,
  webhookEndpointNotFound,
  webhookEndpointsLimit,
  webhookUrlRefused,
} from './webhook-refusals.ts';
import { sortableId } from '../../lib/sortable-id.ts';
import { isOwnId } from '../../lib/stored-lengths.ts';
import { createdPosition, pageOf, type ListPosition } from '../../db/list-cursor.ts';
import { endpointEvents, enqueueTestEvent } from './outbox.ts';
import { newSecret, secretPrefix } from './signature.ts';
import { checkWebhookUrl, UrlRefused, type Resolve, type UrlPolicy } from './url-guard.ts';
import { plainExcerpt } from './answer-excerpt.ts';
import * as repo from './webhooks.repository.ts';

export interface WebhookServiceDeps {
  db: Kysely<Database>;
  now: () => Date;
  policy: UrlPolicy;
  resolve: Resolve;
}

/** Who made a change, as the audit trail names them. */
export interface WebhookActor {
  actorKind: Extract<AuditActorKind, 'operator' | 'key'>;
  actor: string;
  address: string | null;
}

export function endpointEntry(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: endpointEvents(row),
    secretPrefix: secretPrefix(row.secret),
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    failingSince: row.failing_since,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function deliveryEntry(row: repo.DeliveryListRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.type,
    transactionId: row.transaction_id,
    createdAt: row.created_at,
    state:
      row.delivered_at !== null
        ? 'delivered'
        : row.gave_up_at !== null
          ? 'failed'
          : Number(row.attempts) > 0
            ? 'retrying'
            : 'pending',
    attempts: Number(row.attempts),
    lastAttemptAt: row.last_attempt_at,
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastDurationMs: row.last_duration_ms === null ? null : Number(row.last_duration_ms),
    // Cleaned again as shown: a row kept before excerpts were (up to 500 characters of anything).
    lastResponse: plainExcerpt(row.last_response),
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    deliveredAt: row.delivered_at,
    gaveUpAt: row.gave_up_at,
  };
}

async function checkedUrl(deps: WebhookServiceDeps, url: string): Promise<string> {
  try {
    return (await checkWebhookUrl(url, deps.policy, deps.resolve)).href;
  } catch (error) {
    throw error instanceof UrlRefused ? webhookUrlRefused(error.message) : error;
  }
}

const audit = (
  db: Kysely<Database>,
  by: WebhookActor,
  at: Date,
  action: AuditAction,
  target: string,
  detail: string,
) => recordAudit(db, { at, ...by, action, target, detail });

async function endpointOrRefuse(db: Kysely<Database>, id: string) {
  const row = isOwnId(id) ? await repo.findEndpoint(db, id) : undefined;
  if (!row) throw webhookEndpointNotFound();
  return row;
}

export async function listEndpoints(db: Kysely<Database>): Promise<WebhookEndpoint[]> {
  return (await repo.listEndpoints(db)).map(endpointEntry);
}

export async function createEndpoint(
  deps: WebhookServiceDeps,
  body: CreateWebhookEndpointBody,
  by: WebhookActor,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = await checkedUrl(deps, body.url);
  const now = deps.now();
  const at = now.toISOString();
  const secret = newSecret();
  const row: WebhookEndpointRow = {
    id: sortableId(),
    url,
    events: JSON.stringify([...new Set(body.events)]),
    secret,
    enabled: 1,
    disabled_reason: null,
    disabled_at: null,
    failing_since: null,
    created_by: by.actor,
    created_at: at,
    updated_at: at,
  };
  await transact(deps.db, async (trx) => {
    if ((await repo.countEndpoints(trx)) >= WEBHOOK_ENDPOINTS_MAX) throw webhookEndpointsLimit();
    await repo.insertEndpoint(trx, row);
    await audit(
      trx,
      by,
      now,
      'webhook_endpoint_added',
      row.id,
      auditDetail.endpointAdded(url, row.events),
    );
  });
  return { endpoint: endpointEntry(row), secret };
}

/** The words of a change, for the audit line. */
function changeWords(before: WebhookEndpointRow, after: WebhookEndpointRow): string {
  return auditDetail.endpointChanged({
    ...(after.url !== before.url ? { url: { from: before.url, to: after.url } } : {}),
    ...(after.events !== before.events ? { events: after.events } : {}),
    ...(after.enabled !== before.enabled ? { enabled: Boolean(after.enabled) } : {}),
  });
}

export async function changeEndpoint(
  deps: WebhookServiceDeps,
  id: string,
  body: ChangeWebhookEndpointBody,
  by: WebhookActor,
): Promise<{ endpoint: WebhookEndpoint; secret?: string }> {
  const before = await endpointOrRefuse(deps.db, id);
  const url = body.url === undefined ? before.url : await checkedUrl(deps, body.url);
  const now = deps.now();
  const at = now.toISOString();
  const enabled = body.enabled === undefined ? before.enabled : body.enabled ? 1 : 0;
  const after: WebhookEndpointRow = {
    ...before,
    url,
    events: body.events === undefined ? before.events : JSON.stringify([...new Set(body.events)]),
    enabled,
    // Enabled again: it starts afresh; disabled by an owner: that is why.
    ...(enabled !== before.enabled
      ? enabled
        ? { disabled_reason: null, disabled_at: null, failing_since: null }
        : { disabled_reason: 'owner' as const, disabled_at: at }
      : {}),
    secret: body.rotateSecret ? newSecret() : before.secret,
    updated_at: at,
  };
  await transact(deps.db, async (trx) => {
    if (!(await repo.findEndpoint(trx, id))) throw webhookEndpointNotFound();
    const { id: _id, created_at: _created, created_by: _by, ...patch } = after;
    await repo.updateEndpoint(trx, id, patch);
    await audit(trx, by, now, 'webhook_endpoint_changed', id, changeWords(before, after));
    if (body.rotateSecret)
      await audit(
        trx,
        by,
        now,
        'webhook_secret_rotated',
        id,
        auditDetail.secretRotated(secretPrefix(after.secret)),
      );
  });
  return { endpoint: endpointEntry(after), ...(body.rotateSecret ? { secret: after.secret } : {}) };
}

export async function removeEndpoint(deps: WebhookServiceDeps, id: string, by: WebhookActor) {
  const row = await endpointOrRefuse(deps.db, id);
  await transact(deps.db, async (trx) => {
    if (!(await repo.deleteEndpoint(trx, id))) throw webhookEndpointNotFound();
    await audit(
      trx,
      by,
      deps.now(),
      'webhook_endpoint_removed',
      id,
      auditDetail.endpointRemoved(row.url),
    );
  });
}

export async function listDeliveries(
  db: Kysely<Database>,
  endpointId: string,
  after: ListPosition | undefined,
  limit: number,
): Promise<{ deliveries: WebhookDelivery[]; nextCursor: string | null }> {
  await endpointOrRefuse(db, endpointId);
  const rows = await repo.listDeliveries(db, endpointId, after, limit + 1);
  const { page, nextCursor } = pageOf(rows, limit, createdPosition);
  return { deliveries: page.map(deliveryEntry), nextCursor };
}

export async function resendDelivery(
  deps: WebhookServiceDeps,
  id: string,
  by: WebhookActor,
): Promise<WebhookDelivery> {
  const now = deps.now();
  const found = isOwnId(id) ? await repo.findDelivery(deps.db, id) : undefined;
  if (!found) throw webhookDeliveryNotFound();
  await transact(deps.db, async (trx) => {
    await repo.resendDeliveries(trx, { id }, now.toISOString());
    await audit(
      trx,
      by,
      now,
      'webhook_resent',
      found.endpoint_id,
      auditDetail.resent(found.type, found.event_id),
    );
  });
  const row = await repo.findDelivery(deps.db, id);
  if (!row) throw webhookDeliveryNotFound();
  return deliveryEntry(row);
}

export async function resendFailed(
  deps: WebhookServiceDeps,
  endpointId: string,
  by: WebhookActor,
): Promise<number> {
  await endpointOrRefuse(deps.db, endpointId);
  const now = deps.now();
  return transact(deps.db, async (trx) => {
    const resent = await repo.resendDeliveries(trx, { failedOf: endpointId }, now.toISOString());
    await audit(trx, by, now, 'webhook_resent', endpointId, auditDetail.resentFailed(resent));
    return resent;
  });
}

/** A `webhook.test` event to this endpoint only; its delivery, as the list shows it. */
export async function sendTest(
  deps: WebhookServiceDeps,
  endpointId: string,
  by: WebhookActor,
): Promise<WebhookDelivery> {
  const endpoint = await endpointOrRefuse(deps.db, endpointId);
  const now = deps.now();
  const eventId = await transact(deps.db, async (trx) => {
    const id = await enqueueTestEvent(trx, endpoint, now);
    await audit(trx, by, now, 'webhook_test_sent', endpointId, auditDetail.testSent(id));
    return id;
  });
  const [row] = (await repo.listDeliveries(deps.db, endpointId, undefined, 20)).filter(
    (each) => each.event_id === eventId,
  );
  if (!row) throw webhookDeliveryNotFound();
  return deliveryEntry(row);
}
