/**
 * Runs the API (and the built web app) as a process: config, database, migrations, listen, and a
 * graceful shutdown that lets in-flight requests finish.
 */
import { loadConfigOrExit } from './config.ts';
import { loadOrCreateCallbackSecret } from './callback-secret.ts';
import { migrateToLatest, openConfiguredDb } from './db/create-db.ts';
import { createDarajaClient } from './daraja/daraja-client.ts';
import { buildApp } from './app.ts';

async function main(): Promise<void> {
  const config = loadConfigOrExit();

  const callbackSecret = config.callbackSecret ?? loadOrCreateCallbackSecret(config.dataDir);
  const database = openConfiguredDb(config, config.databasePoolSize);
  await migrateToLatest(database);

  const daraja = createDarajaClient(config.mpesa);
  const app = await buildApp({ config, callbackSecret, database, daraja, reconcile: true });
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
