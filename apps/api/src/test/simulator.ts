/** The Daraja simulator, started in-process on a free port, for tests that need a real Daraja peer. */
import { buildSimulator, loadSimulatorConfig, type Simulator } from '@mpesa/simulator';

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
  const address = simulator.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { ...simulator, url: `http://127.0.0.1:${port}`, close: () => simulator.app.close() };
}
