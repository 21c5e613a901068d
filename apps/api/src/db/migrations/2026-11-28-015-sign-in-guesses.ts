import type { Kysely } from 'kysely';

/**
 * What sign-in limits that lock no owner out keep (docs/decisions/005-sign-in-limits.md):
 * - `operators.failed_sign_ins`: wrong passwords for the operator's name since they last signed
 *   in, shown to them at their next sign-in and then set back to 0.
 * - `operator_addresses`: where each operator has signed in (an IPv4 address, an IPv6 /64), and
 *   when last: past the bound on one name's guesses from all addresses, these are still let in.
 */
// Migrations are frozen in time: the lengths are written out here, never imported.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('operators')
    .addColumn('failed_sign_ins', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('operator_addresses')
    .addColumn('operator_id', 'varchar(64)', (col) =>
      col.notNull().references('operators.id').onDelete('cascade'),
    )
    .addColumn('address_key', 'varchar(64)', (col) => col.notNull())
    .addColumn('signed_in_at', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('operator_addresses_pk', ['operator_id', 'address_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operator_addresses').execute();
  await db.schema.alterTable('operators').dropColumn('failed_sign_ins').execute();
}
