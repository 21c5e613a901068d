/**
 * Operators' passwords: scrypt (memory-hard, in node:crypto, no native addon), its parameters
 * kept with each hash as `scrypt$N$r$p$salt$hash` so that they can be raised later without
 * invalidating the hashes already stored. Verified in constant time.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** N = 2^15, r = 8, p = 1: OWASP's scrypt minimum is N = 2^17 with p = 1 at r = 8 for 64 MiB; 2^15 uses 32 MiB. */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** scrypt needs 128 · N · r · p bytes; Node refuses more than `maxmem` (32 MiB by default, just short). */
const maxmemFor = (n: number, r: number, p: number) => 128 * n * r * p + 1024 * 1024;

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
    return `The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long (a phrase of a few words is easiest to remember).`;
  }
  return undefined;
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: n, r, p, maxmem: maxmemFor(n, r, p) };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Parameters no hash of ours has: a stored value that asks for more is refused, not computed. */
const LIMITS = { n: 2 ** 20, r: 32, p: 16 };

/**
 * What an operator added from the web app has until their one-time link is used: no password
 * matches it (no scrypt hash can be `!`).
 */
export const NO_PASSWORD = '!';

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored === NO_PASSWORD) {
    // As long as a wrong password takes: a sign-in does not tell who has no password yet.
    await verifyPassword(password, await dummyHash());
    return false;
  }
  const [scheme, nText, rText, pText, saltText, keyText] = stored.split('$');
  const [n, r, p] = [Number(nText), Number(rText), Number(pText)];
  if (scheme !== 'scrypt' || saltText === undefined || keyText === undefined) return false;
  const valid = [n, r, p].every((value) => Number.isSafeInteger(value) && value > 0);
  if (!valid || n > LIMITS.n || r > LIMITS.r || p > LIMITS.p || (n & (n - 1)) !== 0) return false;
  const expected = Buffer.from(keyText, 'base64url');
  const key = await derive(password, Buffer.from(saltText, 'base64url'), n, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;

/**
 * A hash of no one's password, to verify against when the name is unknown: a sign-in for a name
 * that does not exist takes as long as one with a wrong password.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}
