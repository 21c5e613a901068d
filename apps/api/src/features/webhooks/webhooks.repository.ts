/**
 * The SQL of webhooks: endpoints, the outbox's events and their deliveries, and the deliverer's
 * leases. Functions take `db` or `trx` first.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type {
  WebhookDeliveryRow,
  WebhookDeliveryTable,
  WebhookEndpointRow,
  WebhookEndpointTable,
  WebhookEventRow,
} from '../../db/webhook-tables.ts';
import type { Insertable, Updateable } from 'kysely';

type Db = Kysely<Database>;

export async function listEndpoints(db: Db): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countEndpoints(db: Db): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listEnabledEndpoints(db: Db): Promise<WebhookEndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('enabled', '=', 1).execute();
}

export async function findEndpoint(db: Db, id: string): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertEndpoint(db: Db, row: Insertable<WebhookEndpointTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(
  db: Db,
  id: string,
  patch: Updateable<WebhookEndpointTable>,
): Promise<void> {
  await db.updateTable('webhook_endpoints').set(patch).where('id', '=', id).execute();
}

/**
 * Disables an endpoint still enabled; whether this call did. Two failures of one endpoint recorded
 * at once (its deliveries are sent side by side) both find it enabled: only one disables it.
 */
export async function disableEndpoint(
  db: Db,
  id: string,
  patch: Updateable<WebhookEndpointTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ ...patch, enabled: 0 })
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteEndpoint(db: Db, id: string): Promise<boolean> {
  // Its deliveries go with it (on delete cascade), not the events other endpoints may still get.
  await db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  const result = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertEvent(db: Db, row: WebhookEventRow): Promise<void> {
  await db.insertInto('webhook_events').values(row).execute();
}

export async function insertDeliveries(
  db: Db,
  rows: Insertable<WebhookDeliveryTable>[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}

/** A delivery with what the deliverer sends and to where. */
export type DueDelivery = WebhookDeliveryRow & {
  url: string;
  secret: string;
  body: string;
  event_created_at: string;
};

/** Due now, to an enabled endpoint, and not leased (or its lease lapsed). */
function dueDeliveries(db: Db, now: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .where('e.enabled', '=', 1)
    .where('d.next_attempt_at', '<=', now)
    .where((inner) =>
      inner.or([inner('d.lease_until', 'is', null), inner('d.lease_until', '<', now)]),
    );
}

/** The endpoints with deliveries due now and free to claim: each gets its own worker. */
export async function endpointsWithDueDeliveries(db: Db, now: string): Promise<string[]> {
  const rows = await dueDeliveries(db, now).select('d.endpoint_id').distinct().execute();
  return rows.map((row) => row.endpoint_id);
}

/**
 * Claims up to `limit` deliveries due now to enabled endpoints (to `endpointId` alone if given),
 * for `owner` until `leaseUntil`. The lease conditions are repeated in the UPDATE itself: on
 * PostgreSQL a concurrent claimer re-checks them on the row it waited for, so no two instances
 * claim the same delivery (as features/reconciliation/reconciliation.repository.ts claims payments). SQLite
 * has one writer.
 */
export async function claimDueDeliveries(
  db: Db,
  owner: string,
  now: string,
  leaseUntil: string,
  limit: number,
  endpointId?: string,
): Promise<string[]> {
  const rows = await db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: owner, lease_until: leaseUntil })
    .where('next_attempt_at', 'is not', null)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .where('id', 'in', () => {
      let due = dueDeliveries(db, now);
      if (endpointId !== undefined) due = due.where('d.endpoint_id', '=', endpointId);
      return due.select('d.id').orderBy('d.next_attempt_at').limit(limit);
    })
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Gives back a claim whose attempt was abandoned (the deliverer stopping): due again at once. */
export async function releaseLease(db: Db, id: string, owner: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Claimed deliveries with their endpoint's URL and secret and their event's body. */
export async function loadClaimed(db: Db, ids: string[]): Promise<DueDelivery[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .selectAll('d')
    .select(['e.url', 'e.secret', 'v.body', 'v.created_at as event_created_at'])
    .where('d.id', 'in', ids)
    .orderBy('d.next_attempt_at')
    .execute();
}

/** Records an attempt's outcome, if the delivery is still this owner's (its lease not taken over). */
export async function recordAttempt(
  db: Db,
  id: string,
  owner: string,
  patch: Updateable<WebhookDeliveryTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ ...patch, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type DeliveryListRow = WebhookDeliveryRow & { type: string; transaction_id: string | null };

/** An endpoint's deliveries, newest first, after the cursor (created_at, id) if given. */
export async function listDeliveries(
  db: Db,
  endpointId: string,
  after: { createdAt: string; id: string } | undefined,
  limit: number,
): Promise<DeliveryListRow[]> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .selectAll('d')
    .select(['v.type', 'v.transaction_id'])
    .where('d.endpoint_id', '=', endpointId);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('d.created_at', '<', after.createdAt),
        eb.and([eb('d.created_at', '=', after.createdAt), eb('d.id', '<', after.id)]),
      ]),
    );
  }
  return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(limit).execute();
}

export async function findDelivery(db: Db, id: string): Promise<DeliveryListRow | undefined> {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as v', 'v.id', 'd.event_id')
    .selectAll('d')
    .select(['v.type', 'v.transaction_id'])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

/** Makes deliveries due again now: one by id, or every given-up one of an endpoint. */
export async function resendDeliveries(
  db: Db,
  where: { id: string } | { failedOf: string },
  now: string,
): Promise<number> {
  let query = db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now, gave_up_at: null, delivered_at: null });
  query =
    'id' in where
      ? query.where('id', '=', where.id)
      : query.where('endpoint_id', '=', where.failedOf).where('gave_up_at', 'is not', null);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A delivery's outcome on its endpoint: one delivered ends its failing; a failure starts it. */
export async function markEndpointOutcome(
  db: Db,
  endpointId: string,
  delivered: boolean,
  now: string,
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: delivered ? null : now })
    .where('id', '=', endpointId)
    .where('failing_since', delivered ? 'is not' : 'is', null)
    .execute();
}
