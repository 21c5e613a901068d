import type { Kysely } from 'kysely';

/**
 * Indexes for the history's pages (docs/performance.md): each filter the list takes, followed by
 * the list's own order (created_at, id), so a page is read off the index in order and stops after
 * one page, however many rows match. A receipt is looked up on its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('transactions_status_created_idx')
    .on('transactions')
    .columns(['status', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('transactions_phone_created_idx')
    .on('transactions')
    .columns(['phone_number', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('transactions_receipt_idx')
    .on('transactions')
    .column('mpesa_receipt_number')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('transactions_receipt_idx').execute();
  await db.schema.dropIndex('transactions_phone_created_idx').execute();
  await db.schema.dropIndex('transactions_status_created_idx').execute();
}
