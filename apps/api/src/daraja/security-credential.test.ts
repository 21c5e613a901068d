import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../test/simulator.ts';
import { securityCredential } from './security-credential.ts';

let sim: RunningSimulator;
let certificate: string;

beforeAll(async () => {
  sim = await startSimulator();
  certificate = await (await fetch(`${sim.url}/_sim/certificate`)).text();
});
afterAll(async () => {
  await sim.close();
});

/** What the simulator, as Daraja, makes of a request carrying this credential. */
const checked = (credential: string) =>
  sim.initiators.check({ Initiator: 'testapi', SecurityCredential: credential }, 'Initiator');

describe('the SecurityCredential made from the initiator password', () => {
  it('is 344 characters of base64 that Daraja (the simulator) reads as the sandbox password', () => {
    const credential = securityCredential('Safaricom999!*!', certificate);
    expect(credential).toMatch(/^[A-Za-z0-9+/]{342}==$/);
    expect(checked(credential)).toEqual({ kind: 'passed' });
  });

  it('differs each time, each one good (random padding)', () => {
    const first = securityCredential('Safaricom999!*!', certificate);
    const second = securityCredential('Safaricom999!*!', certificate);
    expect(first).not.toBe(second);
    expect(checked(second)).toEqual({ kind: 'passed' });
  });

  it('carries a wrong password to a 2001 in the Result, as Daraja answers one', () => {
    expect(checked(securityCredential('not the password', certificate))).toEqual({
      kind: 'failed',
      resultCode: '2001',
    });
  });
});
