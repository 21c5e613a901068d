import type { Kysely } from 'kysely';

/**
 * The callbacks about a payment, read by the payment's id: a till or paybill payment has
 * no CheckoutRequestID, so the merchant's view lists its confirmation and receipt check Results by
 * `callbacks.transaction_id` (transactions.repository.ts listCallbacksFor), on this index rather
 * than by reading every callback ever kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('callbacks_transaction_id_idx')
    .on('callbacks')
    .columns(['transaction_id', 'received_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('callbacks_transaction_id_idx').execute();
}
