import type { Kysely } from 'kysely';

/**
 * The `callbacks` table keeps the result callbacks of any Daraja API, not STK push's alone: each
 * row says which API it came back from (a kind its feature names, features/index.ts). Every row
 * kept before this migration was an STK push's; the default fills them in, on both databases, and
 * every insert names its kind.
 */
// Migrations are frozen in time: the kind is written out here, never imported.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('callbacks')
    .addColumn('kind', 'varchar(16)', (col) => col.notNull().defaultTo('stk-push'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('callbacks').dropColumn('kind').execute();
}
