/**
 * Which failures mean "the database cannot take this work right now" rather than a bug: PostgreSQL
 * gone away, restarting, out of connections or too slow, and SQLite's file full, read-only or locked
 * by another process for too long. The API answers them 503 DATABASE_UNAVAILABLE with Retry-After
 * (errors.ts) instead of 500, so that clients and Daraja can tell an outage from a fault of ours,
 * and carries on by itself once the database is back.
 */

/** SQLSTATE classes and codes of a server that is not there, or cannot take the work now. */
const POSTGRES_CLASSES = [
  '08', // connection exception
  '53', // insufficient resources: disk full, out of memory, too many connections
  '58', // system error: an I/O error on the server
];
const POSTGRES_CODES = new Set([
  '57P01', // admin_shutdown: the server is stopping, or the connection was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting up or in recovery
  '57P05', // idle_session_timeout
  '57014', // query_canceled: DATABASE_STATEMENT_TIMEOUT_MS ran out
  '25006', // read_only_sql_transaction: a standby took the writes (a failover in progress)
]);

/** What Node and `pg` say when the connection itself failed; `pg` puts no code on these. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/** SQLite's primary result codes (the low byte of an extended one) for a file it cannot use now. */
const SQLITE_CODES = new Set([
  5, // SQLITE_BUSY: another process holds the lock longer than DATABASE_BUSY_TIMEOUT_MS
  6, // SQLITE_LOCKED
  7, // SQLITE_NOMEM
  8, // SQLITE_READONLY: the file, its folder or its file system became read-only
  10, // SQLITE_IOERR
  13, // SQLITE_FULL: the disk is full
  14, // SQLITE_CANTOPEN
  15, // SQLITE_PROTOCOL
]);

interface MaybeDatabaseError {
  code?: unknown;
  errcode?: unknown;
  syscall?: unknown;
  statusCode?: unknown;
  message?: unknown;
  cause?: unknown;
}

function isUnavailableItself(error: MaybeDatabaseError): boolean {
  const { code, errcode, syscall, message } = error;
  // An HTTP error (Fastify's, Node's: a client that went away is ECONNRESET too) is about the
  // request, never the database.
  if (typeof error.statusCode === 'number') return false;
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') {
    return SQLITE_CODES.has(errcode & 0xff);
  }
  if (typeof code === 'string') {
    // A socket's own failure names the system call that failed (connect, read, write, getaddrinfo).
    if (NETWORK_CODES.has(code)) return typeof syscall === 'string';
    if (POSTGRES_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return POSTGRES_CLASSES.includes(code.slice(0, 2));
  }
  return (
    typeof message === 'string' && PG_CONNECTION_MESSAGES.some((text) => message.startsWith(text))
  );
}

/**
 * The error in `error`'s chain of causes (itself first) that says the database is unavailable, or
 * undefined. An AggregateError (a connection tried on several addresses) counts if any of its own does.
 */
function unavailableCause(error: unknown): MaybeDatabaseError | undefined {
  const seen = new Set<unknown>();
  for (let current = error; typeof current === 'object' && current !== null;) {
    if (seen.has(current)) return undefined;
    seen.add(current);
    const each = current as MaybeDatabaseError;
    if (isUnavailableItself(each)) return each;
    if (current instanceof AggregateError) {
      const inner = current.errors.map(unavailableCause).find((found) => found !== undefined);
      if (inner) return inner;
    }
    current = each.cause;
  }
  return undefined;
}

/** Whether `error`, or an error it was caused by, says the database is unavailable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailableCause(error) !== undefined;
}

/**
 * What a log line needs of such a failure: its code and message, without the stack, which says
 * nothing more while the database is away and would fill the log on every request.
 */
export function unavailableReason(error: unknown): { code?: string; reason: string } {
  const cause = unavailableCause(error);
  if (cause === undefined)
    return { reason: error instanceof Error ? error.message : String(error) };
  return {
    ...(typeof cause.code === 'string' ? { code: cause.code } : {}),
    reason: String(cause.message),
  };
}

/**
 * Logs a failure of work that is tried again later (a readiness probe, a reconciliation round): a
 * database that went away in a line at warn level, anything else at error level with its stack.
 */
export function logFailure(
  log: {
    warn(object: object, message: string): void;
    error(object: object, message: string): void;
  },
  error: unknown,
  messages: { unavailable: string; failed: string },
): void {
  if (isDatabaseUnavailable(error)) log.warn(unavailableReason(error), messages.unavailable);
  else log.error({ err: error }, messages.failed);
}
