/**
 * The app's PostgreSQL connections: a `pg` pool that survives connections the server ends, hands a
 * broken connection back to be closed, and prepares the hot statements once per connection.
 */
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { isDatabaseUnavailable } from './unavailable.ts';

/** The pool's share of create-db.ts `CreateDbOptions` (described there). */
interface PoolOptions {
  poolSize?: number | undefined;
  schema?: string | undefined;
  timeouts?: { connectMs: number; statementMs: number } | undefined;
  onConnectionError?: ((error: Error) => void) | undefined;
}

/**
 * The `pg` pool's settings for these options: the app's, and the bench's bare `SELECT 1` route's
 * (bench/servers/fastify-pg.ts), which must pay exactly what the app pays for a round trip.
 */
export function postgresPoolConfig(databaseUrl: string, options: PoolOptions): pg.PoolConfig {
  const { timeouts } = options;
  return {
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    // Set at connection start-up, so every query on every pooled connection sees the schema.
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    // A server that dies without closing its connections is found by the kernel's keep-alive.
    keepAlive: true,
    ...(timeouts
      ? {
          connectionTimeoutMillis: timeouts.connectMs,
          // The server gives up a statement itself; the client gives up waiting for a server
          // that no longer answers at all (stopped, or its host gone).
          statement_timeout: timeouts.statementMs,
          query_timeout: timeouts.statementMs + STATEMENT_GRACE_MS,
        }
      : {}),
  };
}

/** How much longer than the server's statement timeout the client waits before it gives up. */
const STATEMENT_GRACE_MS = 1000;

/** The pool Kysely is given: see the file's head. */
export function appPool(databaseUrl: string, options: PoolOptions): PostgresPool {
  const pool = new pg.Pool(postgresPoolConfig(databaseUrl, options));
  keepPoolAlive(pool, options.onConnectionError);
  return discardingBrokenClients(pool);
}

/**
 * `pg` emits 'error' on a pool whose idle connection the server ended (a restart, a failover,
 * `pg_terminate_backend`), and on a checked-out connection that broke between two statements; with
 * no listener, Node would end the process. Each is told to `onConnectionError` instead: the pool
 * drops the connection, and the next request opens a new one (or answers 503 until it can).
 */
function keepPoolAlive(pool: pg.Pool, onConnectionError = (_error: Error) => {}): void {
  pool.on('error', (error) => onConnectionError(error));
  pool.on('connect', (client) => {
    client.on('error', (error) => onConnectionError(error));
  });
}

/** Statement names by text, the same on every connection: `s1`, `s2`… */
const statementNames = new Map<string, string>();

/**
 * At most this many texts are prepared; any further one is sent unnamed, as before. The app's
 * statements are a few hundred texts (a history filter's combinations included); the bound keeps a
 * caller that builds texts without end (values written into the SQL) from growing every connection.
 */
const MAX_PREPARED = 1000;

/**
 * A statement whose answer is every column of a table (`select *`, `select "t".*`, `returning *`).
 * PostgreSQL refuses to run such a prepared statement once the table has gained a column (another
 * instance's migration, during a rolling upgrade): these are sent unnamed, parsed each time.
 */
const ALL_COLUMNS = /(select|returning|,)\s+("[^"]+"\.)?\*/i;

/**
 * Kysely's `query(text, values)` as a named statement: PostgreSQL parses and plans it once per
 * connection (and, after a few runs, keeps a generic plan), and `pg` skips sending its text again.
 * A statement without values (`begin`, `commit`) stays on the simple protocol, one message.
 */
function prepared(args: unknown[]): unknown[] {
  const [text, values] = args;
  if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) return args;
  if (ALL_COLUMNS.test(text)) return args;
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= MAX_PREPARED) return args;
    name = `s${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return [{ name, text, values }, ...args.slice(2)];
}

/**
 * PostgreSQL refuses a prepared statement whose answer's columns changed since it was prepared (a
 * column's type changed by another instance's migration; `*` statements are never prepared). The
 * connection is then closed rather than reused, so that its prepared statements go with it: that
 * statement fails once, and is prepared afresh on a new connection.
 */
function isStalePlan(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return code === '0A000' && /cached plan must not change result type/.test(String(error));
}

/**
 * Kysely hands a connection back to the pool as it is. One whose statement ran out of time may still
 * be waiting on a server that stopped answering, and would hold up every statement after it: it is
 * handed back as broken, so that the pool closes it and opens a fresh one.
 */
function discardingBrokenClients(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let found = wrapped.get(client);
      if (!found) {
        let broken = false;
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        found = {
          query: ((...args: unknown[]) => {
            const result = query(...prepared(args));
            if (result instanceof Promise) {
              result.catch((error: unknown) => {
                if (isDatabaseUnavailable(error) || isStalePlan(error)) broken = true;
              });
            }
            return result;
          }) as PostgresPoolClient['query'],
          release() {
            const destroy = broken;
            broken = false;
            client.release(destroy);
          },
        };
        wrapped.set(client, found);
      }
      return found;
    },
    end: () => pool.end(),
  };
}
