/** Runs the Daraja simulator on its own: `npm run simulator`. */
import { buildSimulator } from './app.ts';
import { SimulatorConfigError, loadSimulatorConfig } from './config.ts';

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
await app.listen({ host: config.host, port: config.port });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
app.log.info(`Daraja simulator listening on http://${config.host}:${port}`);
