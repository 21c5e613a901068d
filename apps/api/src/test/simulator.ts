/**
 * The Daraja simulator, started in-process on a free port, for tests that need a real Daraja peer.
 * Imported from its source: the package (daraja-simulator) exports its compiled dist/, which exists
 * only once built for `npm pack`.
 */
export { startSimulator, type RunningSimulator } from '../../../simulator/src/testing.ts';
