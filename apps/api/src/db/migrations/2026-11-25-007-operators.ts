import type { Kysely } from 'kysely';

/**
 * The people who run the shop (operators) and their signed-in sessions (docs/decisions/
 * 003-operator-sessions.md). `name_key` is the name as compared (NFKC, trimmed, lower case): two
 * operators cannot share it. A session is kept only as the SHA-256 of its token, so the table
 * cannot be used to sign in; its idle and absolute expiries are read from here by every instance.
 */
// Migrations are frozen in time: the lengths are written out here, never imported.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operators')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('name', 'varchar(64)', (col) => col.notNull())
    .addColumn('name_key', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('role', 'varchar(16)', (col) => col.notNull())
    .addColumn('password_hash', 'varchar(200)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('operator_sessions')
    .addColumn('token_hash', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('operator_id', 'varchar(64)', (col) =>
      col.notNull().references('operators.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('last_seen_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('operator_sessions_operator_idx')
    .on('operator_sessions')
    .column('operator_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operator_sessions').execute();
  await db.schema.dropTable('operators').execute();
}
