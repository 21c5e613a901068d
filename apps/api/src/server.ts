/**
 * Runs the API (and the built web app) as a process: config, database, migrations, listen, and a
 * graceful shutdown that lets in-flight requests finish.
 */
import { loadConfigOrExit, type Config } from './config.ts';
import { loadOrCreateCallbackSecret } from './callback-secret.ts';
import { migrateToLatest, openConfiguredDb, type DbHandle } from './db/create-db.ts';
import { createDarajaClient } from './daraja/daraja-client.ts';
import { buildApp } from './app.ts';

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

async function main(): Promise<void> {
  const config = loadConfigOrExit();

  const callbackSecret = config.callbackSecret ?? loadOrCreateCallbackSecret(config.dataDir);
  // Until the app's logger exists, a connection's failure is written as a line of its own.
  let connectionLost = (error: Error) =>
    console.error(`database connection lost: ${error.message}`);
  const database = openConfiguredDb(config, config.databasePoolSize, {
    timeouts: config.databaseTimeouts,
    onConnectionError: (error) => connectionLost(error),
  });
  await migrate(config, database);

  const daraja = createDarajaClient(config.mpesa);
  const app = await buildApp({ config, callbackSecret, database, daraja, reconcile: true });
  // Logged, never thrown: the pool drops the connection and opens another when one is needed.
  connectionLost = (error) =>
    app.log.warn({ err: error }, 'database connection lost; a new one is opened when needed');
  for (const warning of config.warnings) app.log.warn(warning);

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
