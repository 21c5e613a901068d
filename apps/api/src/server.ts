/**
 * Runs the API (and the built web app) as a process: config, database, migrations, listen, and a
 * graceful shutdown that lets in-flight requests finish.
 */
import { loadConfigOrExit, type Config } from './config.ts';
import { loadOrCreateCallbackSecret } from './callbacks/callback-secret.ts';
import { migrateToLatest, openConfiguredDb, type DbHandle } from './db/create-db.ts';
import { createDarajaClient } from './daraja/daraja-client.ts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { unavailableReason } from './db/unavailable.ts';

/**
 * A start that cannot go on says why in one line and exits 1 (a supervisor restarts it; npm start
 * says which process stopped), instead of a stack trace.
 */
function exitWith(what: string, error: unknown): never {
  const cause = (error as { cause?: unknown }).cause;
  const reason = error instanceof Error ? error.message : String(error);
  const because = cause instanceof Error ? `: ${cause.message}` : '';
  console.error(`${what}: ${reason}${because}`);
  process.exit(1);
}

function orExit<T>(run: () => T, what: string): T {
  try {
    return run();
  } catch (error) {
    return exitWith(what, error);
  }
}

/**
 * Runs the migrations. On PostgreSQL they run on a connection of their own with no statement
 * timeout: building an index on a million payments may rightly take longer than a request may wait.
 */
async function migrate(config: Config, database: DbHandle): Promise<void> {
  if (database.dialect !== 'postgres') return migrateToLatest(database);
  const migrating = openConfiguredDb(config, 1);
  try {
    await migrateToLatest(migrating);
  } finally {
    await migrating.db.destroy();
  }
}

/** SIGINT and SIGTERM: in-flight requests finish, then the database is closed (30 s at most). */
function shutdownOnSignals(app: FastifyInstance, database: DbHandle): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // Keep-alive connections would hold the server open until HTTP_KEEP_ALIVE_TIMEOUT_MS: close
    // each one as soon as its last response has gone. Give up after 30 s.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    setTimeout(() => {
      app.log.error('shutdown took longer than 30 s; exiting');
      process.exit(1);
    }, 30_000).unref();
    try {
      await app.close();
      clearInterval(sweep);
      await database.db.destroy();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();

  const callbackSecret =
    config.callbackSecret ??
    orExit(
      () => loadOrCreateCallbackSecret(config.dataDir),
      `DATA_DIR ${config.dataDir} cannot be used`,
    );
  // Until the app's logger exists, a connection's failure is written as a line of its own.
  let connectionLost = (error: Error) =>
    console.error(`database connection lost: ${error.message}`);
  const database = orExit(
    () =>
      openConfiguredDb(config, config.databasePoolSize, {
        timeouts: config.databaseTimeouts,
        onConnectionError: (error) => connectionLost(error),
      }),
    'The database (DATABASE_URL) cannot be opened',
  );
  await migrate(config, database).catch((error: unknown) =>
    exitWith(`The database (DATABASE_URL) cannot be prepared`, error),
  );

  const daraja = orExit(
    () => createDarajaClient({ ...config.mpesa, initiator: config.refunds.initiator }),
    'The initiator that refunds (MPESA_INITIATOR_NAME) cannot be set up',
  );
  const app = await buildApp({
    config,
    callbackSecret,
    database,
    daraja,
    money: daraja,
    reconcile: true,
    // MPESA_C2B_REGISTER=start: the C2B URLs are registered once listening (features/c2b/c2b-registration.ts).
    registerC2b: true,
  });
  // Logged, never thrown: the pool drops the connection and opens another when one is needed.
  connectionLost = (error) =>
    app.log.warn(
      unavailableReason(error),
      'database connection lost; a new one is opened when needed',
    );
  for (const warning of config.warnings) app.log.warn(warning);

  shutdownOnSignals(app, database);

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(
        `Port ${config.port} on ${config.host} is already in use: stop what uses it, or set PORT.`,
      );
      process.exit(1);
    }
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  app.log.info(
    { dialect: database.dialect, mpesaEnv: config.mpesa.env, darajaBaseUrl: config.mpesa.baseUrl },
    `M-PESA app listening on http://${config.host}:${port}`,
  );
}

await main();
