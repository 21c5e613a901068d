/**
 * Operators' passwords: scrypt (memory-hard, in node:crypto, no native addon), its parameters
 * kept with each hash as `scrypt$N$r$p$salt$hash` so that they can be raised later without
 * invalidating the hashes already stored. Verified in constant time.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * log2 N (PASSWORD_HASH_COST): 15 by default and at least that in production, with r = 8, p = 1.
 * OWASP's scrypt minimum is N = 2^17 with p = 1 at r = 8 for 64 MiB; 2^15 uses 32 MiB. Tests hash
 * at 2^10: a hash made at any cost is verified at its own, read from the stored value.
 */
export const PASSWORD_HASH_COST = { default: 15, productionMin: 15, min: 10, max: 20 } as const;
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

/** A new hash of `password`, at N = 2^`cost`. */
export async function hashPassword(
  password: string,
  cost: number = PASSWORD_HASH_COST.default,
): Promise<string> {
  if (!Number.isInteger(cost) || cost < PASSWORD_HASH_COST.min || cost > PASSWORD_HASH_COST.max) {
    throw new RangeError(`password hash cost ${cost} is not an integer from 10 to 20`);
  }
  const n = 2 ** cost;
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, n, R, P);
  return ['scrypt', n, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Parameters no hash of ours has: a stored value that asks for more is refused, not computed. */
const LIMITS = { n: 2 ** 20, r: 32, p: 16 };

/**
 * What an operator added from the web app has until their one-time link is used: no password
 * matches it (no scrypt hash can be `!`).
 */
export const NO_PASSWORD = '!';

/**
 * Whether `password` is the one `stored` was made from, at the parameters stored with it. `cost`
 * (the configured one) is only for a value with no password: a dummy is verified at that cost.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  cost: number = PASSWORD_HASH_COST.default,
): Promise<boolean> {
  if (stored === NO_PASSWORD) {
    // As long as a wrong password takes: a sign-in does not tell who has no password yet.
    await verifyPassword(password, await dummyHash(cost));
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

const dummies = new Map<number, Promise<string>>();

/**
 * A hash of no one's password, at the configured `cost`, to verify against when the name is
 * unknown: a sign-in for a name that does not exist takes as long as one with a wrong password.
 */
export function dummyHash(cost: number = PASSWORD_HASH_COST.default): Promise<string> {
  let dummy = dummies.get(cost);
  if (!dummy) {
    dummy = hashPassword(randomBytes(16).toString('hex'), cost);
    dummies.set(cost, dummy);
  }
  return dummy;
}
