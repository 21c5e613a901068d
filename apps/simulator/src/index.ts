export { buildSimulator, type Simulator } from './app.ts';
export { loadSimulatorConfig, type SimulatorConfig } from './config.ts';
export { startSimulator, type RunningSimulator } from './testing.ts';
export type { Prompt } from './operations/stk/prompt.ts';
