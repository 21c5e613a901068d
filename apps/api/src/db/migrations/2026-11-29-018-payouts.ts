import { sql, type Kysely } from 'kysely';

/**
 * Payouts (issue 37): money out of the shop by M-PESA's B2C (to a phone) and B2B (to a paybill or
 * a till), each proposed by one person and approved by a second owner.
 * - `originator_conversation_id`: made and kept when the payout is approved, before it is sent
 *   (B2C v3 sends it; Daraja refuses it used again), unique, so that one payout is one request.
 * - The outcome: M-PESA's receipt, the receiver's public name and the charge in cents (22.40 KES
 *   is 2240), so that the money adds up to the cent.
 * - The bookkeeping of asking transaction status when the answer or the Result is lost, as refunds
 *   have it, and `payee_masked_at` for phone retention.
 * - `balance_readings`: each Account Balance asked (features/balance/), with when it was asked and
 *   the accounts M-PESA gave (JSON, amounts in cents) once its Result came.
 */
// Migrations are frozen in time: the lengths are written out here, never imported.
export async function up(db: Kysely<unknown>): Promise<void> {
  await payouts(db);
  await balanceReadings(db);
}

async function payouts(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payouts')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('batch_id', 'varchar(64)')
    .addColumn('kind', 'varchar(32)', (col) => col.notNull())
    .addColumn('payee', 'varchar(16)', (col) => col.notNull())
    .addColumn('account', 'varchar(16)')
    .addColumn('amount', 'integer', (col) => col.notNull())
    .addColumn('reason', 'varchar(100)', (col) => col.notNull())
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('proposed_by', 'varchar(64)', (col) => col.notNull())
    .addColumn('proposed_by_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('decided_by', 'varchar(64)')
    .addColumn('decided_by_id', 'varchar(64)')
    .addColumn('decided_at', 'varchar(32)')
    .addColumn('corrects_id', 'varchar(64)')
    .addColumn('originator_conversation_id', 'varchar(100)', (col) => col.unique())
    .addColumn('conversation_id', 'varchar(100)')
    .addColumn('status_query_id', 'varchar(100)')
    .addColumn('result_code', 'varchar(32)')
    .addColumn('result_description', 'varchar(300)')
    .addColumn('receipt', 'varchar(32)')
    .addColumn('receiver_name', 'varchar(200)')
    .addColumn('charge_cents', 'integer')
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('next_check_at', 'varchar(32)')
    .addColumn('check_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('payee_masked_at', 'varchar(32)')
    .execute();
  // The list, newest first.
  await db.schema
    .createIndex('payouts_created_idx')
    .on('payouts')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema.createIndex('payouts_batch_idx').on('payouts').column('batch_id').execute();
  await db.schema
    .createIndex('payouts_conversation_idx')
    .on('payouts')
    .column('conversation_id')
    .execute();
  await db.schema
    .createIndex('payouts_status_query_idx')
    .on('payouts')
    .column('status_query_id')
    .execute();
  // The payouts whose outcome (or charge) is awaited, by when to ask next.
  await db.schema
    .createIndex('payouts_due_idx')
    .on('payouts')
    .column('next_check_at')
    .where(sql.ref('next_check_at'), 'is not', null)
    .execute();
}

async function balanceReadings(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('balance_readings')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('shortcode', 'varchar(16)', (col) => col.notNull())
    .addColumn('status', 'varchar(16)', (col) => col.notNull())
    .addColumn('asked_by', 'varchar(64)')
    .addColumn('asked_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('originator_conversation_id', 'varchar(100)')
    .addColumn('conversation_id', 'varchar(100)')
    .addColumn('result_code', 'varchar(32)')
    .addColumn('result_description', 'varchar(300)')
    .addColumn('accounts', 'text')
    .addColumn('completed_at', 'varchar(32)')
    .addColumn('read_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('balance_readings_asked_idx')
    .on('balance_readings')
    .columns(['asked_at', 'id'])
    .execute();
  await db.schema
    .createIndex('balance_readings_originator_idx')
    .on('balance_readings')
    .column('originator_conversation_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('balance_readings').execute();
  await db.schema.dropTable('payouts').execute();
}
