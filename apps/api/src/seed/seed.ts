/**
 * Fills a database with made-up payments (seed-data.ts) for trying the history at scale, in
 * batches that are never all in memory. SQLite: each batch is one transaction of multi-row INSERTs.
 * PostgreSQL: each batch is one transaction of one INSERT … SELECT FROM unnest(…) per table, with
 * every column sent as one array, and the next batch is made while the server writes the last.
 *
 * The statements are written out here rather than built with Kysely's query builder: building a
 * query of thousands of rows value by value costs more than the database takes to write them.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { DbHandle, DialectName } from '../db/create-db.ts';
import type { Database } from '../db/schema.ts';
import { seedPayments, type SeedPlan } from './seed-data.ts';
import type { SeedEvent, SeedRefund, SeedTransaction, SeededPayment } from './seed-rows.ts';

export class SeedError extends Error {
  override name = 'SeedError';
}

export interface SeedOptions extends Omit<SeedPlan, 'existing'> {
  /** Add to a database that already has payments; refused otherwise. */
  append: boolean;
  /** Payments per database transaction (100,000 on SQLite, 5,000 on PostgreSQL). */
  batchSize?: number;
  /** Called once the database is found fit to seed, with how many payments it had. */
  onStart?: (existing: number) => void;
  /** Called after each batch is committed, with how many payments are written so far. */
  onProgress?: (done: number) => void;
}

export interface SeedResult {
  payments: number;
  events: number;
  /** Payments that were there before. */
  existing: number;
}

type PgType = 'text' | 'int4';
const TRANSACTION_COLUMNS: Record<keyof SeedTransaction, PgType> = {
  id: 'text',
  reference: 'text',
  description: 'text',
  phone_number: 'text',
  amount: 'int4',
  status: 'text',
  merchant_request_id: 'text',
  checkout_request_id: 'text',
  result_code: 'text',
  response_description: 'text',
  customer_message: 'text',
  mpesa_receipt_number: 'text',
  transaction_date: 'text',
  created_at: 'text',
  updated_at: 'text',
  next_check_at: 'text',
  check_attempts: 'int4',
  channel: 'text',
  payer_name: 'text',
  payer_msisdn: 'text',
  shortcode: 'text',
};
const EVENT_COLUMNS: Record<keyof SeedEvent, PgType> = {
  id: 'text',
  transaction_id: 'text',
  at: 'text',
  source: 'text',
  from_status: 'text',
  to_status: 'text',
  kind: 'text',
  reason: 'text',
  note: 'text',
  payload: 'text',
};

const REFUND_COLUMNS: Record<keyof SeedRefund, PgType> = {
  id: 'text',
  transaction_id: 'text',
  status: 'text',
  amount: 'int4',
  reason: 'text',
  requested_by: 'text',
  requested_by_id: 'text',
  originator_conversation_id: 'text',
  conversation_id: 'text',
  status_query_id: 'text',
  result_code: 'text',
  result_description: 'text',
  reversal_receipt: 'text',
  created_at: 'text',
  updated_at: 'text',
  next_check_at: 'text',
  check_attempts: 'int4',
  lease_until: 'text',
  lease_owner: 'text',
};

/** Payments per database transaction. */
const BATCH: Record<DialectName, number> = { sqlite: 100_000, postgres: 5_000 };
/** Payments made and written at a time inside an SQLite transaction. */
const SQLITE_CHUNK = 5_000;
/** The page cache while seeding SQLite, in KiB (it is given back afterwards). */
const SQLITE_CACHE_KIB = 262_144;
/** SQLite refuses a statement with more parameters than this (SQLITE_MAX_VARIABLE_NUMBER). */
const SQLITE_MAX_PARAMETERS = 32_766;

interface Table<Row> {
  name: keyof Database;
  types: Record<keyof Row & string, PgType>;
}
const TRANSACTIONS: Table<SeedTransaction> = { name: 'transactions', types: TRANSACTION_COLUMNS };
const EVENTS: Table<SeedEvent> = { name: 'transaction_events', types: EVENT_COLUMNS };
const REFUNDS: Table<SeedRefund> = { name: 'refunds', types: REFUND_COLUMNS };

const columnsOf = <Row>(table: Table<Row>) => Object.keys(table.types) as Array<keyof Row & string>;
const columnList = <Row>(table: Table<Row>) =>
  columnsOf(table)
    .map((column) => `"${column}"`)
    .join(', ');

const sqliteStatements = new Map<string, string>();
function sqliteInsert<Row>(table: Table<Row>, rows: number): string {
  const key = `${table.name}:${rows}`;
  let text = sqliteStatements.get(key);
  if (!text) {
    const tuple = `(${columnsOf(table)
      .map(() => '?')
      .join(', ')})`;
    text = `insert into "${table.name}" (${columnList(table)}) values ${Array(rows).fill(tuple).join(', ')}`;
    sqliteStatements.set(key, text);
  }
  return text;
}

async function writeSqliteRows<Row>(db: Kysely<Database>, table: Table<Row>, rows: Row[]) {
  const columns = columnsOf(table);
  const perStatement = Math.floor(SQLITE_MAX_PARAMETERS / columns.length);
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const parameters: unknown[] = [];
    for (const row of chunk) for (const column of columns) parameters.push(row[column]);
    await db.executeQuery(CompiledQuery.raw(sqliteInsert(table, chunk.length), parameters));
  }
}

async function writePostgresRows<Row>(db: Kysely<Database>, table: Table<Row>, rows: Row[]) {
  const columns = columnsOf(table);
  const arrays = columns.map((column, i) => `$${i + 1}::${table.types[column]}[]`);
  await db.executeQuery(
    CompiledQuery.raw(
      `insert into "${table.name}" (${columnList(table)}) select * from unnest(${arrays.join(', ')})`,
      columns.map((column) => rows.map((row) => row[column])),
    ),
  );
}

/** The next `size` payments (fewer at the end). */
function take(payments: Iterator<SeededPayment>, size: number): SeededPayment[] {
  const chunk: SeededPayment[] = [];
  while (chunk.length < size) {
    const next = payments.next();
    if (next.done) break;
    chunk.push(next.value);
  }
  return chunk;
}

type Write = <Row>(db: Kysely<Database>, table: Table<Row>, rows: Row[]) => Promise<void>;
async function writeChunk(db: Kysely<Database>, write: Write, chunk: SeededPayment[]) {
  await write(
    db,
    TRANSACTIONS,
    chunk.map((payment) => payment.transaction),
  );
  await write(
    db,
    EVENTS,
    chunk.flatMap((payment) => payment.events),
  );
  // A few payments in a thousand were refunded: most chunks have some, a small one may not.
  const refunds = chunk.flatMap((payment) => payment.refund ?? []);
  if (refunds.length > 0) await write(db, REFUNDS, refunds);
}

export async function countPayments(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function seedDatabase(
  handle: Pick<DbHandle, 'db' | 'dialect'>,
  options: SeedOptions,
): Promise<SeedResult> {
  const existing = await countPayments(handle.db);
  if (existing > 0 && !options.append) {
    throw new SeedError(
      `The database already has ${existing.toLocaleString('en-US')} payments. Seeding would mix made-up payments with them; ` +
        'seed an empty database, or add to these on purpose with --append.',
    );
  }
  options.onStart?.(existing);
  const payments = seedPayments({ ...options, existing });
  const batchSize = options.batchSize ?? BATCH[handle.dialect];
  if (!(Number.isInteger(batchSize) && batchSize >= 1)) {
    throw new RangeError(`batchSize must be a whole number of at least 1, not ${batchSize}`);
  }
  let done = 0;
  let events = 0;
  const taken = (chunk: SeededPayment[]) => {
    for (const payment of chunk) events += payment.events.length;
    return chunk;
  };

  if (handle.dialect === 'sqlite') {
    // node:sqlite is synchronous: nothing to overlap. Each batch is one transaction, written in
    // chunks so that only a chunk is in memory. Random keys (ids, phones) touch pages all over
    // their indexes, and every transaction writes each page it touched to the WAL once: large
    // transactions, and a page cache that holds a whole one, are what keep this fast.
    const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(handle.db);
    await sql`pragma cache_size = ${sql.lit(-SQLITE_CACHE_KIB)}`.execute(handle.db);
    try {
      for (let finished = false; !finished;) {
        const before = done;
        await handle.db.transaction().execute(async (trx) => {
          for (let inBatch = 0; inBatch < batchSize;) {
            const chunk = taken(take(payments, Math.min(SQLITE_CHUNK, batchSize - inBatch)));
            if (chunk.length === 0) {
              finished = true;
              break;
            }
            await writeChunk(trx, writeSqliteRows, chunk);
            inBatch += chunk.length;
            done += chunk.length;
          }
        });
        if (done > before) options.onProgress?.(done);
      }
    } finally {
      const previous = cache.rows[0]?.cache_size ?? -2000;
      await sql`pragma cache_size = ${sql.lit(previous)}`.execute(handle.db);
    }
  } else {
    // The next batch is made while the server writes the last one.
    let writing: Promise<void> | undefined;
    for (;;) {
      const batch = taken(take(payments, batchSize));
      await writing;
      if (writing) options.onProgress?.(done);
      if (batch.length === 0) break;
      writing = handle.db.transaction().execute((trx) => writeChunk(trx, writePostgresRows, batch));
      done += batch.length;
    }
  }
  // What autovacuum would do a little later: the planner should know the tables' new size.
  if (handle.dialect === 'postgres')
    await sql`analyze transactions, transaction_events, refunds`.execute(handle.db);
  return { payments: done, events, existing };
}
