/**
 * A SecurityCredential made with the simulator's own certificate but with OAEP padding
 * (docs/daraja-protocol.md §M2.1, §M2.6): Daraja asks for PKCS#1 v1.5, "not OAEP". The simulator
 * holds the key, so it can tell that the credential is its own, wrongly padded, and fail it as
 * Daraja would, instead of passing it unchecked as one made with Safaricom's certificate.
 */
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { INVALID, PASSWORD, closeAll, simulator, status } from '../../test/initiators.ts';

afterEach(closeAll);

const oaep = (certificate: string, oaepHash?: string) =>
  crypto
    .publicEncrypt(
      { key: certificate, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash },
      Buffer.from(PASSWORD),
    )
    .toString('base64');

describe('a credential made with the simulator’s certificate and OAEP padding', () => {
  it.each([undefined, 'sha256'])(
    'fails with 2001 (OAEP hash %s), saying why in the log, not passed as Safaricom’s',
    async (oaepHash) => {
      const { sim, warnings } = await simulator();
      const certificate = (await sim.app.inject('/_sim/certificate')).body;
      expect(sim.initiators.check(status(oaep(certificate, oaepHash)), 'Initiator')).toEqual(
        INVALID,
      );
      const log = warnings().join('\n');
      expect(log).not.toMatch(/Safaricom's, most likely/);
      expect(log).toMatch(/initiator testapi .* OAEP padding: Daraja asks for PKCS#1 v1\.5/);
      // A failure like any other: it counts towards the lock.
      expect(sim.initiators.list()[0]).toMatchObject({ failures: 1 });
    },
  );
});
