import type { Kysely } from 'kysely';

// Migrations are frozen in time: they take Kysely<unknown>, never the app's current Database type.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('transactions')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('reference', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('phone_number', 'varchar(16)', (col) => col.notNull())
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('merchant_request_id', 'varchar(100)')
    .addColumn('checkout_request_id', 'varchar(100)', (col) => col.unique())
    .addColumn('result_code', 'varchar(32)')
    .addColumn('response_description', 'text')
    .addColumn('customer_message', 'text')
    .addColumn('mpesa_receipt_number', 'varchar(32)')
    .addColumn('transaction_date', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('transactions_created_at_idx')
    .on('transactions')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('transactions_phone_status_idx')
    .on('transactions')
    .columns(['phone_number', 'status'])
    .execute();

  await db.schema
    .createTable('callbacks')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('received_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('checkout_request_id', 'varchar(100)')
    .addColumn('transaction_id', 'varchar(64)')
    .addColumn('source_ip', 'varchar(64)')
    .addColumn('raw_body', 'text', (col) => col.notNull())
    .addColumn('outcome', 'varchar(16)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('callbacks_checkout_request_id_idx')
    .on('callbacks')
    .column('checkout_request_id')
    .execute();

  await db.schema
    .createTable('transaction_events')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('transaction_id', 'varchar(64)', (col) =>
      col.notNull().references('transactions.id').onDelete('cascade'),
    )
    .addColumn('at', 'varchar(32)', (col) => col.notNull())
    .addColumn('source', 'varchar(16)', (col) => col.notNull())
    .addColumn('from_status', 'varchar(16)')
    .addColumn('to_status', 'varchar(16)', (col) => col.notNull())
    .addColumn('note', 'text')
    .addColumn('payload', 'text')
    .execute();
  await db.schema
    .createIndex('transaction_events_transaction_idx')
    .on('transaction_events')
    .columns(['transaction_id', 'at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transaction_events').execute();
  await db.schema.dropTable('callbacks').execute();
  await db.schema.dropTable('transactions').execute();
}
