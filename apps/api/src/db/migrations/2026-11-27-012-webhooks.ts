import type { Kysely } from 'kysely';

/**
 * Webhooks (docs/webhooks.md):
 * - `webhook_endpoints`: where the shop's own systems hear of payments, the events each wants (a
 *   JSON array), and the secret its events are signed with. The secret is kept as it was made, not
 *   hashed as an API key is: signing needs the secret itself (HMAC), where checking a key needs
 *   only its hash. Only a prefix of it is ever shown again.
 * - `webhook_events`: the outbox. An event is written in the same database transaction as the
 *   change it tells of, with the exact body that will be sent, so that none is lost and none is
 *   sent for a change rolled back.
 * - `webhook_deliveries`: one per endpoint per event, its attempts and schedule, and the lease an
 *   instance holds while it sends it (no two instances send the same delivery at once).
 */
// Migrations are frozen in time: the lengths are written out here, never imported.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('url', 'varchar(2000)', (col) => col.notNull())
    .addColumn('events', 'varchar(400)', (col) => col.notNull())
    .addColumn('secret', 'varchar(100)', (col) => col.notNull())
    .addColumn('enabled', 'integer', (col) => col.notNull())
    .addColumn('disabled_reason', 'varchar(16)')
    .addColumn('disabled_at', 'varchar(32)')
    .addColumn('failing_since', 'varchar(32)')
    .addColumn('created_by', 'varchar(64)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('type', 'varchar(32)', (col) => col.notNull())
    .addColumn('transaction_id', 'varchar(64)')
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('event_id', 'varchar(64)', (col) =>
      col.notNull().references('webhook_events.id').onDelete('cascade'),
    )
    .addColumn('endpoint_id', 'varchar(64)', (col) =>
      col.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)')
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('last_attempt_at', 'varchar(32)')
    .addColumn('last_status', 'integer')
    .addColumn('last_duration_ms', 'integer')
    .addColumn('last_response', 'varchar(500)')
    .addColumn('last_error', 'varchar(200)')
    .addColumn('delivered_at', 'varchar(32)')
    .addColumn('gave_up_at', 'varchar(32)')
    .addUniqueConstraint('webhook_deliveries_event_endpoint_key', ['event_id', 'endpoint_id'])
    .execute();
  // What the deliverer claims: due ones, soonest first (delivered and given-up ones have none).
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .execute();
  // An endpoint's deliveries, newest first, paged by (created_at, id).
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_events').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
