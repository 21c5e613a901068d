import { sql, type Kysely } from 'kysely';

/**
 * Refunds by reversal and payments from the phone's own menu (docs/product.md §10, §11):
 * - `transactions.channel`: how a payment came (`prompt`, `till`, `paybill`); every payment before
 *   this one came by prompt. `payer_name`: the name M-PESA gives with a till or paybill payment.
 *   `shortcode`: the shortcode that received it (null: the STK push's MPESA_PARTY_B).
 * - `transactions.payer_msisdn`: the payer's number exactly as a C2B confirmation gives it, masked
 *   (v2) or a SHA-256 in hex (v1, 64 characters; docs/daraja-protocol.md §M3.3); `phone_number`
 *   holds what the history shows of it.
 * - One payment per till or paybill receipt (a confirmation sent twice records nothing more).
 * - `refunds`: one per payment (the unique `transaction_id`: two owners at once make one), with
 *   the reversal's ids and outcome, and the bookkeeping of its recovery by transaction status.
 * - `receipt_checks`: a receipt the merchant typed, and the transaction status query asked for it.
 */
// Migrations are frozen in time: the lengths are written out here, never imported.
export async function up(db: Kysely<unknown>): Promise<void> {
  await paymentColumns(db);
  await refunds(db);
  await receiptChecks(db);
}

async function paymentColumns(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('transactions')
    .addColumn('channel', 'varchar(16)', (col) => col.notNull().defaultTo('prompt'))
    .execute();
  await db.schema.alterTable('transactions').addColumn('payer_name', 'varchar(200)').execute();
  await db.schema.alterTable('transactions').addColumn('shortcode', 'varchar(16)').execute();
  await db.schema.alterTable('transactions').addColumn('payer_msisdn', 'varchar(64)').execute();
  await db.schema
    .createIndex('transactions_c2b_receipt_uidx')
    .on('transactions')
    .column('mpesa_receipt_number')
    .unique()
    .where(sql.ref('channel'), '<>', 'prompt')
    .execute();
  // The history filtered by channel, read off an index in the list's order.
  await db.schema
    .createIndex('transactions_channel_created_idx')
    .on('transactions')
    .columns(['channel', 'created_at', 'id'])
    .execute();
}

async function refunds(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('transaction_id', 'varchar(64)', (col) =>
      col.notNull().unique().references('transactions.id'),
    )
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('reason', 'varchar(200)', (col) => col.notNull())
    .addColumn('requested_by', 'varchar(64)', (col) => col.notNull())
    .addColumn('requested_by_id', 'varchar(64)')
    .addColumn('originator_conversation_id', 'varchar(100)')
    .addColumn('conversation_id', 'varchar(100)')
    .addColumn('status_query_id', 'varchar(100)')
    .addColumn('result_code', 'varchar(32)')
    .addColumn('result_description', 'varchar(300)')
    .addColumn('reversal_receipt', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('next_check_at', 'varchar(32)')
    .addColumn('check_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('lease_owner', 'varchar(64)')
    .execute();
  await db.schema
    .createIndex('refunds_originator_idx')
    .on('refunds')
    .column('originator_conversation_id')
    .execute();
  await db.schema
    .createIndex('refunds_status_query_idx')
    .on('refunds')
    .column('status_query_id')
    .execute();
  // The refunds whose outcome is awaited, by when to ask next.
  await db.schema
    .createIndex('refunds_due_idx')
    .on('refunds')
    .column('next_check_at')
    .where(sql.ref('status'), '=', 'requested')
    .execute();
}

async function receiptChecks(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('receipt_checks')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('receipt', 'varchar(32)', (col) => col.notNull())
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('requested_by', 'varchar(64)', (col) => col.notNull())
    .addColumn('originator_conversation_id', 'varchar(100)')
    .addColumn('transaction_id', 'varchar(64)')
    .addColumn('result_code', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('receipt_checks_originator_idx')
    .on('receipt_checks')
    .column('originator_conversation_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('receipt_checks').execute();
  await db.schema.dropTable('refunds').execute();
  await db.schema.dropIndex('transactions_channel_created_idx').execute();
  await db.schema.dropIndex('transactions_c2b_receipt_uidx').execute();
  await db.schema.alterTable('transactions').dropColumn('payer_msisdn').execute();
  await db.schema.alterTable('transactions').dropColumn('shortcode').execute();
  await db.schema.alterTable('transactions').dropColumn('payer_name').execute();
  await db.schema.alterTable('transactions').dropColumn('channel').execute();
}
