/** The Daraja simulator, started in-process on a free port, for tests that need a real Daraja peer. */
export { startSimulator, type RunningSimulator } from '@mpesa/simulator';
