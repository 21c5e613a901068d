import type { Kysely } from 'kysely';

/**
 * What a payment lifecycle you can trust needs: reconciliation bookkeeping and leases on
 * transactions, one open prompt per phone, idempotency keys, and shared rate-limit counters.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('next_check_at', 'varchar(32)').execute();
  await db.schema
    .alterTable('transactions')
    .addColumn('check_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('transactions').addColumn('lease_until', 'varchar(32)').execute();
  await db.schema.alterTable('transactions').addColumn('lease_owner', 'varchar(64)').execute();
  await db.schema.alterTable('transactions').addColumn('flagged_reason', 'text').execute();
  await db.schema
    .createIndex('transactions_reconcile_idx')
    .on('transactions')
    .columns(['status', 'next_check_at'])
    .execute();

  await db.schema
    .createTable('phone_locks')
    .addColumn('phone_number', 'varchar(16)', (col) => col.primaryKey())
    .addColumn('transaction_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('locked_until', 'varchar(32)', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('key', 'varchar(255)', (col) => col.primaryKey())
    .addColumn('request_hash', 'varchar(64)', (col) => col.notNull())
    .addColumn('transaction_id', 'varchar(64)')
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('idempotency_keys_expires_idx')
    .on('idempotency_keys')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(200)', (col) => col.primaryKey())
    .addColumn('window_index', 'integer', (col) => col.notNull())
    .addColumn('hits', 'integer', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.dropTable('phone_locks').execute();
  await db.schema.dropIndex('transactions_reconcile_idx').execute();
  for (const column of [
    'flagged_reason',
    'lease_owner',
    'lease_until',
    'check_attempts',
    'next_check_at',
  ]) {
    await db.schema.alterTable('transactions').dropColumn(column).execute();
  }
}
