import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The history at a million payments (docs/performance.md):
 * - the creation index also carries each payment's status and amount, so that the summary's
 *   daily totals are read from the index alone, never from the rows;
 * - references compare by code point on both databases (PostgreSQL's "C" collation, SQLite's
 *   default), so that a reference prefix is an index range; their index carries each payment's
 *   time and status, so that the matches of a prefix can be sorted from it alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('transactions_created_cover_idx')
    .on('transactions')
    .columns(['created_at', 'id', 'status', 'amount'])
    .execute();
  await db.schema.dropIndex('transactions_created_at_idx').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table transactions alter column reference type text collate "C"`.execute(db);
  }
  await db.schema
    .createIndex('transactions_reference_idx')
    .on('transactions')
    .columns(['reference', 'created_at', 'id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('transactions_reference_idx').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table transactions alter column reference type text collate "default"`.execute(
      db,
    );
  }
  await db.schema
    .createIndex('transactions_created_at_idx')
    .on('transactions')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema.dropIndex('transactions_created_cover_idx').execute();
}
