import type { Kysely } from 'kysely';

/**
 * The history filtered by a channel and a status together (`channel=till&status=failed`): read
 * off one index in the list's order, so that a page stops after one page even when few of the
 * channel's payments have that status. With the channel's index alone (migration 010), a status
 * that none of a million till payments has would read them all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('transactions_channel_status_created_idx')
    .on('transactions')
    .columns(['channel', 'status', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('transactions_channel_status_created_idx').execute();
}
