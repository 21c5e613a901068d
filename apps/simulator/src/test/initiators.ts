/** Test helpers for SecurityCredential (initiators*.test.ts): a simulator with its log, and credentials as clients make them. */
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import { buildSimulator, type Simulator } from '../app.ts';
import { loadSimulatorConfig } from '../config.ts';

export const PASSWORD = 'Safaricom999!*!';
const running: Simulator[] = [];

/** Closes every simulator `simulator()` started (afterEach). */
export async function closeAll() {
  for (const sim of running.splice(0)) await sim.app.close();
}

/** A simulator, its warnings and worse collected as lines. */
export async function simulator(env: Record<string, string> = {}) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().trim().split('\n'));
      done();
    },
  });
  const config = loadSimulatorConfig({ SIM_AUTO_APPROVE_S: '0', LOG_LEVEL: 'warn', ...env });
  const sim = await buildSimulator(config, { logger: { stream } });
  running.push(sim);
  const warnings = () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { sim, warnings };
}

/** What a client does: fetch the certificate, encrypt the password with it (§M2.1). */
export async function credentialFor(sim: Simulator, password: string): Promise<string> {
  const certificate = (await sim.app.inject('/_sim/certificate')).body;
  return crypto
    .publicEncrypt(
      { key: certificate, padding: crypto.constants.RSA_PKCS1_PADDING },
      Buffer.from(password),
    )
    .toString('base64');
}

/**
 * The password `Safaricom999!*!` encrypted once with Safaricom's sandbox certificate
 * (`CN=apicrypt.safaricom.co.ke`, serial 32FAEE940000000446E4, SHA-256 A5:42:C3:C6:…:66:F0, from
 * safaricom/mpesa-node-library `keys/sandbox-cert.cer`; docs/daraja-protocol.md §M2.2): what most
 * clients send, and what the simulator cannot read. Kept as made, so that the test is the same each
 * time (the padding is random).
 */
export const SAFARICOM_MADE =
  'VzrGDs6VxSeWDiOdgOHaxbXh56WZfe9ZX6lKA138w8fLyCypFJl1PlIlEMEi2Pus7+lQM44APDaRmQ7x8NFyYoslXi8QeBfP2MGtQSdv4uRqn8sTL9tD+qOtTREQ9nW6kgv9rpX4R1qmQsW81WBDoFAmsnf4XEJAhj2tHyt7yMB20IHMNHnelGtooyKXRL4bBsYm1C3COSdVGjs+vfBBaV4Pr+oj00qBuRa+F5aaEgitFkwDrjKUSfsutduIBaC29rf8XCf1fI0bQ/7i/bfl7XVw+9v4aJX04+Kwa9/qM3uMWcfRB8HylIPzRznkArp+e8Yodm6Za5AiWhLzxrL5BQ==';

/** 256 bytes above the simulator's modulus: a credential made with a larger key than ours. */
export const ABOVE_OUR_MODULUS = Buffer.alloc(256, 0xff).toString('base64');

export const b2c = (credential: unknown, name: unknown = 'testapi') => ({
  InitiatorName: name,
  SecurityCredential: credential,
});
export const status = (credential: unknown, name: unknown = 'testapi') => ({
  Initiator: name,
  SecurityCredential: credential,
});

export const PASSED = { kind: 'passed' };
export const INVALID = { kind: 'failed', resultCode: '2001' };
export const LOCKED = { kind: 'failed', resultCode: '8006' };
export const refused = (field: string) => ({
  kind: 'refused',
  failure: [400, '400.002.02', `Bad Request - Invalid ${field}`],
});
