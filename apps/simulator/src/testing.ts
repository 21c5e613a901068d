/**
 * Starts the simulator in-process on a free port, quiet, with short timings: for tests, ours and
 * anyone's, that need a Daraja to talk to. Settings as environment-style strings override.
 */
import type { AddressInfo } from 'node:net';
import { buildSimulator, type Simulator } from './app.ts';
import { loadSimulatorConfig } from './config.ts';

export interface RunningSimulator extends Simulator {
  url: string;
  close(): Promise<void>;
}

export async function startSimulator(env: Record<string, string> = {}): Promise<RunningSimulator> {
  const config = loadSimulatorConfig({
    SIMULATOR_PORT: '0',
    SIM_CALLBACK_DELAY_MS: '50',
    SIM_AUTO_APPROVE_S: '0',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const simulator = await buildSimulator(config, { logger: false });
  await simulator.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = simulator.app.server.address() as AddressInfo;
  return { ...simulator, url: `http://127.0.0.1:${port}`, close: () => simulator.app.close() };
}
