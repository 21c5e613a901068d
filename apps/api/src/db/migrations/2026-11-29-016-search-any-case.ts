import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The history's search at a million payments (issue 35, docs/performance.md):
 * - a reference is found by its start whatever its letter case: the reference index of migration
 *   004 (used by that search alone) becomes one on the lower-cased reference. lower() changes only
 *   A to Z on both databases: SQLite's built-in one does no more, and PostgreSQL's does no more on
 *   the "C" collation the column has had since 004; the search text is lower-cased the same way.
 * - a phone number is found by its last digits: an index on the number written backwards, whose
 *   first characters are then the number's last, so that the numbers ending with some digits are
 *   a range of it. SQLite has no reverse(), so the expression takes the column's characters one by
 *   one, from the 16th (its largest length) to the first; past a number's end substr() gives ''
 *   on both databases. PostgreSQL's column gets the "C" collation, as the reference's did in 004,
 *   so that the range holds exactly the numbers that end with the digits, whatever the database's
 *   locale.
 * Both indexes carry each payment's time and status, so that the matches are sorted from them
 * alone, and last the column their expression is made from: PostgreSQL reads an index alone
 * (an index-only scan) only when every column the query names is one of the index's own, and
 * lower(reference) names `reference`. Without it PostgreSQL visited every match's row, and chose
 * to scan the table for a common prefix. (SQLite needs no such help; a column added after the
 * others changes no range.)
 *
 * history.repository.ts writes the same two expressions: a database uses an index on an
 * expression only for a query that writes it the same way (history-search-plans.test.ts checks
 * that both are used). Migrations are frozen in time: the expressions are written out here, never
 * imported.
 */
const REVERSED_PHONE = Array.from(
  { length: 16 },
  (_, index) => `substr(phone_number, ${16 - index}, 1)`,
).join(' || ');

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('transactions_reference_idx').execute();
  await db.schema
    .createIndex('transactions_reference_lower_idx')
    .on('transactions')
    .expression(sql`lower(reference)`)
    .columns(['created_at', 'id', 'status', 'reference'])
    .execute();
  if (isPostgres(db)) {
    await sql`alter table transactions alter column phone_number type varchar(16) collate "C"`.execute(
      db,
    );
  }
  await db.schema
    .createIndex('transactions_phone_reversed_idx')
    .on('transactions')
    .expression(sql.raw(`(${REVERSED_PHONE})`))
    .columns(['created_at', 'id', 'status', 'phone_number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('transactions_phone_reversed_idx').execute();
  if (isPostgres(db)) {
    await sql`alter table transactions alter column phone_number type varchar(16) collate "default"`.execute(
      db,
    );
  }
  await db.schema.dropIndex('transactions_reference_lower_idx').execute();
  await db.schema
    .createIndex('transactions_reference_idx')
    .on('transactions')
    .columns(['reference', 'created_at', 'id', 'status'])
    .execute();
}
