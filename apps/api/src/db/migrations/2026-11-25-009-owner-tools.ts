import { sql, type Kysely } from 'kysely';

/**
 * What the owner's screens keep:
 * - `audit_events`: who did what and when (sign-ins and failed ones, exports, reviews, operator
 *   and key changes), newest read first; `seq` orders rows written in the same millisecond.
 * - `api_keys`: keys for the shop's own systems, kept only as the SHA-256 of the key, with the
 *   first characters shown to tell them apart; revoked, never deleted, so the trail names them.
 * - `password_links`: one-time links that set an operator's password, as the SHA-256 of their
 *   token; one live link per operator (a newer one replaces it).
 * - `operator_sessions.password_stamp`: the SHA-256 of the password hash a session was opened with;
 *   a session whose stamp is not its operator's current hash's is refused (a password changed).
 * - `callbacks.phone_masked_at`: when PHONE_RETENTION_DAYS masked the numbers in a callback no
 *   payment claimed (a payment's own callbacks are masked with it, migration 008).
 */
// Migrations are frozen in time: the lengths are written out here, never imported.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('at', 'varchar(32)', (col) => col.notNull())
    .addColumn('actor_kind', 'varchar(16)', (col) => col.notNull())
    .addColumn('actor', 'varchar(64)')
    .addColumn('action', 'varchar(32)', (col) => col.notNull())
    .addColumn('target', 'varchar(64)')
    .addColumn('detail', 'varchar(1200)')
    .addColumn('address', 'varchar(64)')
    .execute();
  // Newest first, paged by (at, id).
  await db.schema
    .createIndex('audit_events_at_idx')
    .on('audit_events')
    .columns(['at', 'id'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('name', 'varchar(64)', (col) => col.notNull())
    .addColumn('scope', 'varchar(32)', (col) => col.notNull())
    .addColumn('prefix', 'varchar(16)', (col) => col.notNull())
    .addColumn('key_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('created_by', 'varchar(64)', (col) => col.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('revoked_at', 'varchar(32)')
    .execute();

  await db.schema
    .createTable('password_links')
    .addColumn('operator_id', 'varchar(64)', (col) =>
      col.primaryKey().references('operators.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();

  await db.schema
    .alterTable('operator_sessions')
    .addColumn('password_stamp', 'varchar(64)')
    .execute();

  await db.schema.alterTable('callbacks').addColumn('phone_masked_at', 'varchar(32)').execute();
  // Only the callbacks retention has still to look at: none once every old one is masked.
  await db.schema
    .createIndex('callbacks_unclaimed_unmasked_idx')
    .on('callbacks')
    .column('received_at')
    .where(sql<boolean>`transaction_id is null and phone_masked_at is null`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('callbacks_unclaimed_unmasked_idx').execute();
  await db.schema.alterTable('callbacks').dropColumn('phone_masked_at').execute();
  await db.schema.alterTable('operator_sessions').dropColumn('password_stamp').execute();
  await db.schema.dropTable('password_links').execute();
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('audit_events').execute();
}
