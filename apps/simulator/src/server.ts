/** Runs the Daraja simulator on its own: `npm run simulator`. */
import { buildSimulator } from './app.ts';
import { SimulatorConfigError, loadSimulatorConfig } from './config.ts';
import { exposureWarning } from './remote-access.ts';

let config;
try {
  config = loadSimulatorConfig(process.env);
} catch (error) {
  if (error instanceof SimulatorConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  throw error;
}

const { app } = await buildSimulator(config);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
try {
  await app.listen({ host: config.host, port: config.port });
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(
      `Port ${config.port} on ${config.host} is already in use: stop what uses it, or set SIMULATOR_PORT.`,
    );
    process.exit(1);
  }
  throw error;
}
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const host = config.host.includes(':') ? `[${config.host}]` : config.host;
app.log.info(`Daraja simulator listening on http://${host}:${port}`);
const warning = exposureWarning(config);
if (warning) app.log.warn(warning);
