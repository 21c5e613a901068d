/**
 * SecurityCredential: the initiator's password as the Result APIs (reversal, transaction status,
 * B2C, …) carry it (docs/daraja-protocol.md §M2.1). Encrypted with the public key of M-PESA's
 * certificate, RSA with PKCS#1 v1.5 padding (not OAEP), the bytes in standard base64 with padding.
 * The padding is random, so the same password gives a different credential each time, and any of
 * them may be reused. With the simulator, the certificate is its own (GET /_sim/certificate), which
 * it can decrypt to check the password as Daraja does (§M2.6).
 */
import crypto from 'node:crypto';

/** The credential for `password`, made with the certificate (PEM) of the Daraja it is sent to. */
export function securityCredential(password: string, certificatePem: string): string {
  return crypto
    .publicEncrypt(
      { key: certificatePem, padding: crypto.constants.RSA_PKCS1_PADDING },
      Buffer.from(password, 'utf8'),
    )
    .toString('base64');
}
