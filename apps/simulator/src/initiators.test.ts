/**
 * SecurityCredential, checked for real (docs/daraja-protocol.md §M2.6): the certificate a client
 * encrypts with, the check every Result API makes of its initiator and credential, the locks and
 * their control routes, and SIM_STATE keeping them.
 */
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  INVALID,
  PASSED,
  PASSWORD,
  SAFARICOM_MADE,
  ABOVE_OUR_MODULUS,
  b2c,
  closeAll,
  credentialFor,
  refused,
  simulator,
  status,
} from './test/initiators.ts';

afterEach(closeAll);

describe('GET /_sim/certificate', () => {
  it('serves the simulator’s RSA 2048 certificate as PEM, which a client can encrypt with', async () => {
    const { sim } = await simulator();
    const answer = await sim.app.inject('/_sim/certificate');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/x-pem-file');
    expect(answer.body).toMatch(
      /^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/,
    );
    const certificate = new crypto.X509Certificate(answer.body);
    expect(certificate.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(certificate.subject).toContain('daraja-simulator');

    const credential = await credentialFor(sim, PASSWORD);
    expect(credential).toHaveLength(344);
    expect(sim.initiators.check(b2c(credential), 'InitiatorName')).toEqual(PASSED);
    expect(sim.initiators.check(status(credential), 'Initiator')).toEqual(PASSED);
  });

  it('answers this machine only, as the rest of the control API', async () => {
    const { sim } = await simulator();
    const answer = await sim.app.inject({ url: '/_sim/certificate', remoteAddress: '192.0.2.10' });
    expect(answer.statusCode).toBe(403);
  });
});

describe('the check of an initiator and its SecurityCredential', () => {
  it('fails a wrong password, and a wrong name, with 2001', async () => {
    const { sim } = await simulator();
    expect(
      sim.initiators.check(b2c(await credentialFor(sim, 'Safaricom999!')), 'InitiatorName'),
    ).toEqual(INVALID);
    // The password of the configured initiator, for a name nobody configured.
    const right = await credentialFor(sim, PASSWORD);
    expect(sim.initiators.check(status(right, 'apiop37'), 'Initiator')).toEqual(INVALID);
    expect(sim.initiators.check(status(right, 'TESTAPI'), 'Initiator')).toEqual(INVALID);
    expect(sim.initiators.list()).toEqual([{ name: 'testapi', failures: 1, locked: false }]);
  });

  it('checks the password and name the settings give', async () => {
    const { sim } = await simulator({
      SIM_INITIATOR_NAME: 'apiop37',
      SIM_INITIATOR_PASSWORD: 'Safaricom3021#',
    });
    expect(
      sim.initiators.check(
        status(await credentialFor(sim, 'Safaricom3021#'), 'apiop37'),
        'Initiator',
      ),
    ).toEqual(PASSED);
    expect(sim.initiators.check(status(await credentialFor(sim, PASSWORD)), 'Initiator')).toEqual(
      INVALID,
    );
  });

  it('fails the password itself, sent as plain text, with 2001', async () => {
    const { sim } = await simulator();
    expect(sim.initiators.check(b2c(PASSWORD), 'InitiatorName')).toEqual(INVALID);
    // Base64 of the password: not encrypted either.
    expect(
      sim.initiators.check(b2c(Buffer.from(PASSWORD).toString('base64')), 'InitiatorName'),
    ).toEqual(INVALID);
    expect(sim.initiators.list()[0]).toMatchObject({ failures: 2 });
  });

  it('refuses at once a missing initiator, a missing credential and one that is not base64', async () => {
    const { sim } = await simulator();
    const credential = await credentialFor(sim, PASSWORD);
    expect(sim.initiators.check({ SecurityCredential: credential }, 'InitiatorName')).toEqual(
      refused('InitiatorName'),
    );
    expect(sim.initiators.check(status(credential, ''), 'Initiator')).toEqual(refused('Initiator'));
    // B2C spells it InitiatorName: `Initiator` is not read.
    expect(sim.initiators.check(status(credential), 'InitiatorName')).toEqual(
      refused('InitiatorName'),
    );
    for (const spoilt of [
      undefined,
      '',
      '   ',
      42,
      { value: credential },
      // Wrapped in lines of 64, as `openssl base64` without -A writes it.
      credential.replace(/(.{64})/g, '$1\n'),
      // base64url, URL-encoded, cut short.
      credential.replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', ''),
      encodeURIComponent(credential),
      credential.slice(0, 343),
    ]) {
      expect(sim.initiators.check(b2c(spoilt), 'InitiatorName'), String(spoilt)).toEqual(
        refused('SecurityCredential'),
      );
    }
    // Refusals at once are no failed attempt.
    expect(sim.initiators.list()[0]).toMatchObject({ failures: 0 });
  });
});

describe('a credential made with Safaricom’s certificate', () => {
  it('is accepted unchecked by default, said once per initiator in the log', async () => {
    const { sim, warnings } = await simulator();
    expect(sim.initiators.check(b2c(SAFARICOM_MADE), 'InitiatorName')).toEqual(PASSED);
    expect(sim.initiators.check(status(SAFARICOM_MADE), 'Initiator')).toEqual(PASSED);
    expect(sim.initiators.check(b2c(ABOVE_OUR_MODULUS), 'InitiatorName')).toEqual(PASSED);
    expect(warnings()).toEqual([
      expect.stringContaining("initiator testapi was not made with the simulator's certificate"),
    ]);
    expect(warnings()[0]).toContain('GET /_sim/certificate');
    expect(warnings()[0]).toContain('SIM_STRICT_CREDENTIALS=true');
    // Its name is still checked.
    expect(sim.initiators.check(b2c(SAFARICOM_MADE, 'apiop37'), 'InitiatorName')).toEqual(INVALID);
  });

  it('fails with 2001 under SIM_STRICT_CREDENTIALS, counted as a wrong password', async () => {
    const { sim, warnings } = await simulator({ SIM_STRICT_CREDENTIALS: 'true' });
    expect(sim.initiators.check(b2c(SAFARICOM_MADE), 'InitiatorName')).toEqual(INVALID);
    expect(sim.initiators.check(b2c(ABOVE_OUR_MODULUS), 'InitiatorName')).toEqual(INVALID);
    expect(sim.initiators.list()[0]).toMatchObject({ failures: 2 });
    expect(warnings()).toEqual([
      expect.stringMatching(/testapi does not decrypt with the simulator's key: .*SIM_STRICT/),
      expect.stringMatching(/testapi does not decrypt with the simulator's key: .*SIM_STRICT/),
    ]);
    expect(sim.initiators.check(b2c(await credentialFor(sim, PASSWORD)), 'InitiatorName')).toEqual(
      PASSED,
    );
  });
});

describe('a wrong credential’s line in the log', () => {
  it('says what kind of wrong it was, never showing a password', async () => {
    const { sim, warnings } = await simulator({ SIM_INITIATOR_LOCK_AFTER: '0' });
    const wrongs = [
      // mpesakit's helper: the password with a timestamp appended.
      await credentialFor(sim, `${PASSWORD}20260314093000`),
      await credentialFor(sim, `${PASSWORD}!x`),
      await credentialFor(sim, ` ${PASSWORD}\n`),
      await credentialFor(sim, 'Safaricom123!!'),
      PASSWORD,
      Buffer.from(PASSWORD).toString('base64'),
    ];
    for (const credential of wrongs) {
      expect(sim.initiators.check(b2c(credential), 'InitiatorName')).toEqual(INVALID);
    }
    expect(sim.initiators.check(b2c(wrongs[0], 'apiop37'), 'InitiatorName')).toEqual(INVALID);
    const lines = warnings();
    expect(lines).toEqual([
      expect.stringContaining(
        "decrypts to the initiator's password with 14 characters appended: 20260314093000, a timestamp perhaps, so it fails (2001)",
      ),
      expect.stringContaining("decrypts to the initiator's password with 2 characters appended,"),
      expect.stringContaining("the initiator's password with spaces or line breaks around it"),
      expect.stringContaining(
        "decrypts to another password (14 characters) than SIM_INITIATOR_PASSWORD's",
      ),
      expect.stringContaining('is not encrypted, so it fails (2001): plain text of 15 characters'),
      expect.stringContaining('is not encrypted, so it fails (2001): base64 of 15 bytes'),
      expect.stringContaining("Initiator apiop37 is not known: the simulator's is testapi"),
    ]);
    for (const line of lines) {
      expect(line).not.toContain(PASSWORD);
      expect(line).not.toContain('Safaricom123');
    }
  });
});
