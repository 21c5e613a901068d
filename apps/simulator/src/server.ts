#!/usr/bin/env node
/**
 * Runs the Daraja simulator as a process: `npm run simulator` in this repository, `daraja-simulator`
 * once the package is installed (its bin, compiled to dist/server.js). The flags and environment
 * variables it reads: cli.ts.
 */
import { buildSimulator } from './app.ts';
import { COMMAND_NAME, parseCommandLine } from './cli.ts';
import { SimulatorConfigError } from './config.ts';
import { proxyBanner } from './proxy/tunnel.ts';
import { exposureWarning } from './remote-access.ts';
import { runReplay } from './replay.ts';

const command = parseCommandLine(process.argv.slice(2), process.env);
if (command.kind === 'help' || command.kind === 'version') {
  console.log(command.text);
} else if (command.kind === 'error') {
  console.error(command.message);
  process.exitCode = 1;
} else if (command.kind === 'replay') {
  process.exitCode = await runReplay(command, console.log, console.error);
} else {
  const { config } = command;
  const cannotStart = (error: unknown): never => {
    // A SIM_JOURNAL or SIM_STATE file, or the proxy's folder, that cannot be used: said in a
    // sentence, not a stack trace.
    if (!(error instanceof SimulatorConfigError)) throw error;
    console.error(`Cannot start: ${error.message}`);
    process.exit(1);
  };
  const { app, authority } = await buildSimulator(config).catch(cannotStart);
  // The proxy's authority is made now, not at its first use: a client is told to trust its file
  // before it makes its first request.
  await authority?.load().catch(async (error: unknown) => {
    await app.close();
    cannotStart(error);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    const problem = listenProblem(error as NodeJS.ErrnoException, config.host, config.port);
    if (!problem) throw error;
    console.error(problem);
    // Closed first, so that SIM_STATE's file is written and its lock let go.
    await app.close();
    process.exit(1);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  app.log.info(`Daraja simulator listening on http://${host}:${port}`);
  if (authority) app.log.info(proxyBanner(`http://${host}:${port}`, authority.certificateFile));
  const warning = exposureWarning(config);
  if (warning) app.log.warn(warning);
  for (const unknown of command.warnings) app.log.warn(unknown);
}

/** Why the simulator could not listen, in a sentence; undefined for what is not the user's doing. */
function listenProblem(
  error: NodeJS.ErrnoException,
  host: string,
  port: number,
): string | undefined {
  switch (error.code) {
    case 'EADDRINUSE':
      return `Port ${port} on ${host} is already in use: stop what uses it, or choose another with SIMULATOR_PORT (${COMMAND_NAME} --port).`;
    case 'EACCES':
      return `Port ${port} on ${host} needs privileges this user lacks: choose a port above 1023 with SIMULATOR_PORT (${COMMAND_NAME} --port).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return `SIM_HOST ${host} is not an address or a host name this machine can find (${COMMAND_NAME} --host): use 127.0.0.1, 0.0.0.0 or one of this machine's addresses.`;
    case 'EADDRNOTAVAIL':
      return `SIM_HOST ${host} is not an address of this machine (${COMMAND_NAME} --host): use 127.0.0.1, 0.0.0.0 or one of this machine's addresses.`;
    default:
      return undefined;
  }
}
