/**
 * The simulator's own key pair for SecurityCredential (docs/daraja-protocol.md §M2). Daraja's
 * clients encrypt the initiator's password with M-PESA's public key certificate, RSA with PKCS#1
 * v1.5 padding, and send the result in base64 (§M2.1). Nobody outside Safaricom can read a
 * credential made with Safaricom's certificate, so the simulator ships a certificate of its own
 * (src/keys/, copied into dist/keys/ by the build): a credential made with it can be decrypted here
 * and its password compared with the configured one (§M2.6).
 *
 * The private key is published with the package on purpose: it guards nothing but the simulator's
 * own test passwords.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** src/keys in the sources, dist/keys once built: two folders up from this file in both. */
const KEYS = path.join(import.meta.dirname, '../../keys');

/** The certificate clients encrypt with, as PEM (GET /_sim/certificate serves it). */
export const CERTIFICATE_FILE = path.join(KEYS, 'security-credential-certificate.pem');
const PRIVATE_KEY_FILE = path.join(KEYS, 'security-credential-key.pem');

/** What a SecurityCredential turned out to be. */
export type CredentialReading =
  /** Neither base64 nor a password typed in: refused at once (§M2.3). */
  | { kind: 'malformed' }
  /**
   * Something that cannot be any certificate's credential: plain text, or base64 of a wrong size.
   * `what` says which without repeating it (it may be the password as it is).
   */
  | { kind: 'not-encrypted'; what: string }
  /** 256 bytes our key does not decrypt: made with another certificate, Safaricom's above all. */
  | { kind: 'foreign' }
  /** Made with our certificate but with OAEP padding, which Daraja does not take (§M2.1). */
  | { kind: 'oaep' }
  /** Made with our certificate: the password it holds. */
  | { kind: 'ours'; password: string };

/** Standard base64 with its padding, as every reference implementation writes it (§M2.1). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The longest text taken for a password typed in instead of a credential. Longer text that is not
 * base64 is a credential spoilt on its way (wrapped in lines, URL-encoded, cut short) and is
 * refused at once; a password sent as it is gets 2001 later, as reported (§M2.3, §M2.6).
 */
export const PLAIN_TEXT_MAX = 64;

/** A 2048-bit key's ciphertext: 256 bytes, 344 characters of base64 (§M2.1). */
const CIPHERTEXT_BYTES = 256;

export class CredentialKey {
  readonly certificate: string;
  readonly #privateKey: crypto.KeyObject;

  constructor(
    certificate = fs.readFileSync(CERTIFICATE_FILE, 'utf8'),
    privateKey = fs.readFileSync(PRIVATE_KEY_FILE, 'utf8'),
  ) {
    this.certificate = certificate;
    this.#privateKey = crypto.createPrivateKey(privateKey);
  }

  read(credential: string): CredentialReading {
    if (!BASE64.test(credential)) {
      return credential.length <= PLAIN_TEXT_MAX
        ? { kind: 'not-encrypted', what: `plain text of ${credential.length} characters` }
        : { kind: 'malformed' };
    }
    const ciphertext = Buffer.from(credential, 'base64');
    if (ciphertext.length !== CIPHERTEXT_BYTES) {
      return { kind: 'not-encrypted', what: `base64 of ${ciphertext.length} bytes` };
    }
    // OAEP first: its check is exact (a block made otherwise fails it but for a chance of 2^-160),
    // while one OAEP block in a few hundred happens to look like PKCS#1 v1.5 padding.
    if (this.#isOaep(ciphertext)) return { kind: 'oaep' };
    const password = this.#decrypt(ciphertext);
    return password === undefined ? { kind: 'foreign' } : { kind: 'ours', password };
  }

  /**
   * Whether our key decrypts the block as OAEP, with SHA-1 (OpenSSL's and most libraries' default)
   * or SHA-256: a client that used our certificate with the wrong padding (Daraja asks for
   * "PKCS #1.5 padding (not OAEP)", §M2.1).
   */
  #isOaep(ciphertext: Buffer): boolean {
    return ['sha1', 'sha256'].some((oaepHash) => {
      try {
        crypto.privateDecrypt(
          { key: this.#privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash },
          ciphertext,
        );
        return true;
      } catch {
        return false;
      }
    });
  }

  /**
   * The message inside a PKCS#1 v1.5 block encrypted with our public key, or undefined.
   *
   * Node's own RSA_PKCS1_PADDING decryption cannot tell: against the Marvin timing attack it
   * answers a ciphertext made with another key with random bytes, not an error ("implicit
   * rejection"). So the block is decrypted raw and its padding read here: 0x00 0x02, at least 8
   * non-zero bytes, 0x00, the message (RFC 8017 §7.2.2). A block from another key passes by
   * chance only rarely (about once in tens of thousands of tries), and a simulator has no secret a timing attack could take.
   */
  #decrypt(ciphertext: Buffer): string | undefined {
    let block: Buffer;
    try {
      block = crypto.privateDecrypt(
        { key: this.#privateKey, padding: crypto.constants.RSA_NO_PADDING },
        ciphertext,
      );
    } catch {
      return undefined; // a number above our modulus: made with a larger one
    }
    const end = block.indexOf(0, 2);
    if (block[0] !== 0 || block[1] !== 2 || end < 10) return undefined;
    return block.subarray(end + 1).toString('utf8');
  }
}
