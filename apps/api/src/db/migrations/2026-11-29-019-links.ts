import { sql, type Kysely } from 'kysely';

/**
 * Payment links (issue 38, features/links/): a link the shop makes once, paid by the usual prompt.
 * - `payment_links`: the link, its unguessable `code` (its address, `/pay/<code>`), a fixed
 *   `amount` or the payer's with a `min_amount`, what it is for, its reference, whether it takes
 *   one payment or many, when it expires and when it was switched off.
 * - `transactions.link_id`: the link a payment was made through (none for the others).
 * A one-payment link is held to one payment when the payment is saved (links.service.ts, under a
 * lock), not by a unique index: an index would refuse the later success of a payment M-PESA
 * reports paid after all (a timed-out prompt the payer did complete), and a payer who paid must
 * never be recorded as unpaid.
 */
// Migrations are frozen in time: the lengths are written out here, never imported.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_links')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('code', 'varchar(16)', (col) => col.notNull().unique())
    .addColumn('amount', 'integer')
    .addColumn('min_amount', 'integer')
    .addColumn('purpose', 'varchar(100)', (col) => col.notNull())
    .addColumn('reference', 'varchar(100)', (col) => col.notNull())
    .addColumn('one_only', 'integer', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('switched_off_at', 'varchar(32)')
    .addColumn('switched_off_by', 'varchar(64)')
    .addColumn('created_by', 'varchar(64)', (col) => col.notNull())
    .addColumn('created_by_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  // The list, newest first.
  await db.schema
    .createIndex('payment_links_created_idx')
    .on('payment_links')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema.alterTable('transactions').addColumn('link_id', 'varchar(64)').execute();
  await db.schema
    .createIndex('transactions_link_idx')
    .on('transactions')
    .column('link_id')
    .where(sql.ref('link_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('transactions_link_idx').execute();
  await db.schema.alterTable('transactions').dropColumn('link_id').execute();
  await db.schema.dropTable('payment_links').execute();
}
