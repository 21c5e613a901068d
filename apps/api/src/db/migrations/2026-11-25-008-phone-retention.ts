import { sql, type Kysely } from 'kysely';

/**
 * Phone retention (PHONE_RETENTION_DAYS, docs/deployment.md): when a payment's phone number was
 * masked in place, and an index of the payments not masked yet, oldest first, so that each round
 * of the job reads the next candidates without passing over the payments already masked (after a
 * year, nearly all of them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('phone_masked_at', 'varchar(32)').execute();
  await db.schema
    .createIndex('transactions_phone_unmasked_idx')
    .on('transactions')
    .columns(['created_at', 'id'])
    .where(sql.ref('phone_masked_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('transactions_phone_unmasked_idx').execute();
  await db.schema.alterTable('transactions').dropColumn('phone_masked_at').execute();
}
