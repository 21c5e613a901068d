/**
 * The SQL of the merchant's history: its pages and filters (the figures at a glance are in
 * summary.repository.ts, what a selection adds up to in selection-totals.repository.ts). Every
 * query reads an index that starts with its filter and ends with the list's order (migrations 003,
 * 004 and 016, docs/performance.md). Functions take `db` or `trx` first.
 */
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import type { Database, TransactionRow } from '../../db/schema.ts';

type Db = Kysely<Database>;

/** Which payments a history page holds. */
export interface ListQuery extends Selection {
  /** Rows to read (one more than a page, to know whether another follows). */
  limit: number;
}

/** Which payments the filters select, from a position in the list's order on. */
export interface Selection {
  /** Only rows after this position in the list's order. */
  after?: { createdAt: string; id: string };
  statuses?: readonly TransactionRow['status'][];
  /** How the payments came: prompt, till, paybill (migration 010). */
  channels?: readonly TransactionRow['channel'][];
  /** Created at or after this instant, and before `until` (ISO 8601 UTC). */
  since?: string;
  until?: string;
  /**
   * A normalised phone number, or else search text: a receipt or the start of a reference, in any
   * letter case, and, when `phoneEnding` is given, the last digits of a phone number. Never both.
   */
  phone?: string;
  text?: string;
  /** Digits a phone number ends with (only with `text`: the service decides which text is). */
  phoneEnding?: string;
}

/** A filter on the transactions that one branch of a page adds. */
export type Condition = (query: FromTransactions) => FromTransactions;
type FromTransactions = ReturnType<typeof fromTransactions>;

function fromTransactions(db: Db) {
  return db.selectFrom('transactions');
}

/** What a page is ordered and merged by. */
type Sortable = Pick<TransactionRow, 'id' | 'created_at'>;
/** The columns a page reads: all of them (null), or these and the two it is ordered by. */
type Columns = readonly (keyof TransactionRow)[] | null;

/**
 * A prefix (of a reference, or of a phone number written backwards) that matches fewer payments
 * than this is read through its index and sorted. One that matches more is looked for first among
 * the newest PREFIX_SCAN_ROWS of the list (a common prefix fills a page there); when they hold less
 * than a page, the matches are older, and are sorted by the prefix's index alone, which carries
 * their time.
 */
export const PREFIX_SORT_LIMIT = 5000;
export const PREFIX_SCAN_ROWS = 10_000;

/**
 * The reference in lower case, as migration 016 indexes it: lower() changes only A to Z on both
 * databases (SQLite's built-in one; PostgreSQL's on the column's "C" collation), and
 * `lowerCaseAtoZ` does the same to the search text.
 */
export const LOWER_REFERENCE = sql<string>`lower(reference)`;

/**
 * The phone number written backwards, as migration 016 indexes it, so that the numbers that end
 * with some digits are those whose reversed form starts with them: a range of that index. SQLite
 * has no reverse(): the column's characters are taken one by one from the 16th (its largest
 * length) to the first; past a number's end substr() gives ''. A database uses the index only for
 * a query that writes its expression exactly so (history-search-plans.test.ts).
 */
export const REVERSED_PHONE = sql<string>`(${sql.raw(
  Array.from({ length: 16 }, (_, index) => `substr(phone_number, ${16 - index}, 1)`).join(' || '),
)})`;

/** The text with A to Z in lower case, and every other character as it is (as lower() does). */
export function lowerCaseAtoZ(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * Newest first, ordered by (created_at, id) so that rows with the same instant neither repeat nor
 * vanish between pages, also while new payments arrive (they sort before every cursor).
 *
 * Each query reads an index in the list's order and stops after one page. Where one query could
 * not (several statuses or channels, or text that may be a receipt or the start of a reference),
 * each part is read on its own index and the parts are merged.
 */
export function listTransactions(db: Db, query: ListQuery): Promise<TransactionRow[]>;
/** Only these columns (and id and created_at): an export reads no more than it writes. */
export function listTransactions<C extends keyof TransactionRow>(
  db: Db,
  query: ListQuery,
  columns: readonly C[],
): Promise<Pick<TransactionRow, C | keyof Sortable>[]>;
export async function listTransactions(
  db: Db,
  query: ListQuery,
  columns: Columns = null,
): Promise<Sortable[]> {
  const { text, phoneEnding } = query;
  if (text === undefined) {
    return eachPart(query, (part) => page(db, part, columns, (select) => select));
  }
  // What any one of these finds is found: a receipt, a reference, a phone number's end.
  const found = await Promise.all([
    // A receipt is matched whole (M-PESA's are in capitals): a handful of rows, read by the
    // receipt index.
    newestOf(
      db,
      query,
      columns,
      candidates(db, query, (select) =>
        select.where('mpesa_receipt_number', '=', text.toUpperCase()),
      ),
    ),
    byPrefix(db, query, columns, LOWER_REFERENCE, lowerCaseAtoZ(text)),
    ...(phoneEnding === undefined
      ? []
      : [byPrefix(db, query, columns, REVERSED_PHONE, [...phoneEnding].reverse().join(''))]),
  ]);
  return newestFirst(found, query.limit);
}

/**
 * The page's conditions on time, status and channel, on `table`'s columns (the transactions, or a
 * table of candidates drawn from them).
 */
function pageConditions<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  query: Selection,
  table: '' | 'found.' = '',
): Expression<SqlBool> {
  const column = (name: 'created_at' | 'id' | 'status' | 'channel') =>
    sql.ref<string>(`${table}${name}`);
  const { after, since, until, statuses, channels } = query;
  const conditions: Expression<SqlBool>[] = [];
  if (after) {
    // The first condition bounds the index range; the second breaks ties on the instant. (The
    // OR alone is not a range to either database: each page would read every row above it.)
    conditions.push(
      eb(column('created_at'), '<=', after.createdAt),
      eb.or([eb(column('created_at'), '<', after.createdAt), eb(column('id'), '<', after.id)]),
    );
  }
  if (statuses) conditions.push(eb(column('status'), 'in', statuses));
  if (channels) conditions.push(eb(column('channel'), 'in', channels));
  if (since) conditions.push(eb(column('created_at'), '>=', since));
  if (until) conditions.push(eb(column('created_at'), '<', until));
  return eb.and(conditions);
}

/** The rows the query's filters and this branch's condition select. */
export function filtered(db: Db, query: Selection, condition: Condition) {
  const { phone } = query;
  return condition(fromTransactions(db))
    .where((eb) => pageConditions(eb, query))
    .$if(phone !== undefined, (q) => q.where('phone_number', '=', phone!));
}

function selectColumns(query: FromTransactions, columns: Columns) {
  return columns === null ? query.selectAll() : query.select(['id', 'created_at', ...columns]);
}

/** One page: the query's filters and this branch's condition, in the list's order. */
function page(
  db: Db,
  query: ListQuery,
  columns: Columns,
  condition: Condition,
): Promise<Sortable[]> {
  return selectColumns(filtered(db, query, condition), columns)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .execute();
}

/**
 * A page read in the list's order: with several statuses or channels (and no phone, whose index
 * holds few rows), one read per status and channel, each on the (status, created_at, id) or the
 * (channel, created_at, id) index (migrations 003, 010), merged. A status and a channel together
 * are read off whichever of the two the database finds the narrower.
 */
async function eachPart(
  query: ListQuery,
  read: (part: ListQuery) => Promise<Sortable[]>,
): Promise<Sortable[]> {
  const { statuses, channels } = query;
  const several = (values: readonly string[] | undefined) =>
    values !== undefined && values.length > 1;
  if ((!several(statuses) && !several(channels)) || query.phone !== undefined) {
    return read(query);
  }
  const parts = await Promise.all(
    (statuses ?? [undefined]).flatMap((status) =>
      (channels ?? [undefined]).map((channel) =>
        read({
          ...query,
          ...(status ? { statuses: [status] } : {}),
          ...(channel ? { channels: [channel] } : {}),
        }),
      ),
    ),
  );
  return newestFirst(parts, query.limit);
}

/** More rows than any table holds: a limit that only keeps the query below from being merged into its caller. */
const ALL_ROWS = Number.MAX_SAFE_INTEGER;

/**
 * The rows a condition selects, read off whichever index serves that condition, as a table of
 * their own. Its LIMIT keeps either database from merging it into the query that reads it, and
 * so from reaching for another index (a status, the list's order) to answer that query. The
 * channel is read only when the query filters by it: no index but its own carries it, and the
 * reference index alone serves a search without it.
 */
function candidates(db: Db, query: ListQuery, condition: Condition) {
  const columns = ['id', 'created_at', 'status'] as const;
  return condition(fromTransactions(db))
    .select(query.channels ? [...columns, 'channel'] : columns)
    .limit(ALL_ROWS);
}

/**
 * The newest page among candidates that pass the query's filters, sorted from the candidates
 * alone, then read whole. Search text and a phone number never come together (the service sends
 * one or the other), so only the filters a candidate carries apply.
 */
function newestOf(
  db: Db,
  query: ListQuery,
  columns: Columns,
  found: ReturnType<typeof candidates>,
): Promise<Sortable[]> {
  const newest = db
    .selectFrom(found.as('found'))
    .select('found.id')
    .where((eb) => pageConditions(eb, query, 'found.'))
    .orderBy('found.created_at', 'desc')
    .orderBy('found.id', 'desc')
    .limit(query.limit);
  return selectColumns(fromTransactions(db).where('id', 'in', newest), columns)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * The payments whose `key` (the lower-cased reference, or the reversed phone number) starts with
 * `prefix`. Both compare by code point on both databases (their columns have PostgreSQL's "C"
 * collation, migrations 004 and 016), so the prefix is a range of the key's (key, created_at, id,
 * status) index.
 */
async function byPrefix(
  db: Db,
  query: ListQuery,
  columns: Columns,
  key: RawBuilder<string>,
  prefix: string,
) {
  const end = prefixEnd(prefix);
  const inRange: Condition = (select) =>
    select.where(key, '>=', prefix).$if(end !== null, (q) => q.where(key, '<', end!));
  const { count } = await db
    .selectFrom(inRange(fromTransactions(db)).select('id').limit(PREFIX_SORT_LIMIT).as('few'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  // None at all (digits are seldom the start of a reference): nothing more to ask.
  if (Number(count) === 0) return [];
  if (Number(count) < PREFIX_SORT_LIMIT) {
    return newestOf(db, query, columns, candidates(db, query, inRange));
  }
  return eachPart(query, async (part) => {
    // The newest rows of the list, in its order, and the matches among them.
    const recent = filtered(db, part, (select) => select)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(PREFIX_SCAN_ROWS);
    const found = await db
      .selectFrom(recent.as('recent'))
      .selectAll()
      .where(key, '>=', prefix)
      .$if(end !== null, (q) => q.where(key, '<', end!))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .execute();
    // Fewer than a page there: the matches are older, and are sorted from the index alone.
    return found.length === query.limit
      ? found
      : newestOf(db, part, columns, candidates(db, part, inRange));
  });
}

/** The least string above every string that starts with `prefix`, by code point; null if none. */
export function prefixEnd(prefix: string): string | null {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      return points.join('') + String.fromCodePoint(last + 1 === 0xd800 ? 0xe000 : last + 1);
    }
  }
  return null;
}

/** The first `limit` rows of several pages, each newest first, once each. */
function newestFirst<R extends Sortable>(parts: readonly R[][], limit: number): R[] {
  const byId = new Map<string, R>();
  for (const part of parts) for (const row of part) byId.set(row.id, row);
  return [...byId.values()]
    .sort((a, b) =>
      a.created_at === b.created_at ? compare(b.id, a.id) : compare(b.created_at, a.created_at),
    )
    .slice(0, limit);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
