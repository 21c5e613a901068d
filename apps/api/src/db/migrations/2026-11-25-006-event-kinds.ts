import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * Typed events: each row of `transaction_events` says what it records (`kind`, the values of
 * EventKind in packages/shared/src/event-kinds.ts), and the reason of a flag or of a report that
 * changed nothing has a column of its own (`reason`), so that nothing reads a note back.
 *
 * Rows already there are given their kind from their note, by the rules the timeline used to read
 * notes with, in the same order: the first that matches wins. Prefixes are compared exactly (case
 * and all) on both databases, as `startsWith` did; a note none of them match is `other`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('transaction_events')
    // SQLite adds a NOT NULL column only with a default; every writer names the kind.
    .addColumn('kind', 'varchar(32)', (col) => col.notNull().defaultTo('other'))
    .execute();
  await db.schema.alterTable('transaction_events').addColumn('reason', 'text').execute();

  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const note = sql.ref('note');
  const startsWith = (prefix: string) =>
    sql`substr(${note}, 1, ${sql.lit(prefix.length)}) = ${sql.lit(prefix)}`;
  const endsWith = (suffix: string) =>
    sql`substr(${note}, length(${note}) - ${sql.lit(suffix.length - 1)}) = ${sql.lit(suffix)}`;
  /** Where `text` begins in the note (1-based; 0 when it is not there). */
  const position = (text: string) =>
    postgres ? sql`strpos(${note}, ${sql.lit(text)})` : sql`instr(${note}, ${sql.lit(text)})`;
  const after = (prefix: string) => sql`substr(${note}, ${sql.lit(prefix.length + 1)})`;

  const initiation: Array<[RawBuilder<unknown>, string]> = [
    [sql`from_status is null`, 'saved'],
    [sql`${note} = 'accepted by M-PESA'`, 'accepted'],
    [startsWith('outcome unknown: '), 'push_unknown'],
    [startsWith('flagged: '), 'flagged'],
    [sql`to_status = 'failed'`, 'push_failed'],
  ];
  const report: Array<[RawBuilder<unknown>, string]> = [
    [sql`${note} is null`, 'applied'],
    [startsWith('duplicate '), 'duplicate'],
    [startsWith('flagged: '), 'flagged'],
    [startsWith('not applied: flagged for review'), 'not_applied_under_review'],
    [startsWith('ignored: '), 'ignored'],
    [sql`${note} = 'receipt added by a late callback'`, 'receipt_added'],
    [endsWith('settled the unknown outcome'), 'settled_unknown'],
    [sql`${startsWith('late ')} and ${position('; ')} = 0`, 'lifted'],
    [
      sql`${startsWith('late ')} and ${position('; ')} = ${position('; flagged: ')}`,
      'lifted_flagged',
    ],
    [
      sql`${startsWith('late ')} and ${endsWith('; still flagged for review')} and ${position('; ')} = length(${note}) - 25`,
      'lifted_under_review',
    ],
  ];
  const cases = (rules: Array<[RawBuilder<unknown>, string]>) =>
    sql.join(
      rules.map(([when, kind]) => sql`when ${when} then ${sql.lit(kind)}`),
      sql` `,
    );
  await sql`
    update transaction_events set kind = case
      when source = 'initiation' then case ${cases(initiation)} else 'other' end
      when source in ('callback', 'query') then case ${cases(report)} else 'other' end
      when source = 'reconciliation' then 'gave_up'
      when source = 'review' then case
        when ${startsWith('unknown outcome settled')} then 'unknown_settled'
        else 'flag_cleared' end
      else 'other' end
  `.execute(db);
  await sql`
    update transaction_events set reason = case kind
      when 'flagged' then ${after('flagged: ')}
      when 'ignored' then ${after('ignored: ')}
      else substr(${note}, ${position('; flagged: ')} + ${sql.lit('; flagged: '.length)}) end
    where kind in ('flagged', 'ignored', 'lifted_flagged')
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transaction_events').dropColumn('reason').execute();
  await db.schema.alterTable('transaction_events').dropColumn('kind').execute();
}
