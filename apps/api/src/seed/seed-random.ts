/**
 * Seeded randomness for `npm run db:seed`: the same seed gives the same numbers on every machine,
 * which `Math.random` and `crypto` cannot promise.
 */

/** murmur3's finaliser: a bijection on 32-bit integers that scatters neighbouring inputs. */
export function mix32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** sfc32 (Chris Doty-Humphrey's small fast counter): 128 bits of state, fast, and good enough. */
export class Random {
  #a: number;
  #b: number;
  #c: number;
  #d = 1;

  constructor(seed: number, stream = 0) {
    this.#a = mix32(seed ^ 0x9e3779b9);
    this.#b = mix32(seed + 0x7f4a7c15);
    this.#c = mix32(stream ^ 0x632be5ab);
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  /** In [0, 1). */
  float(): number {
    return this.uint32() / 4_294_967_296;
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  /** A standard normal value (Box–Muller). */
  normal(): number {
    const u = 1 - this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float());
  }

  /** One of `items`, each as likely as its weight. */
  pick<T extends { weight: number }>(items: readonly T[]): T {
    let left = this.float() * items.reduce((sum, item) => sum + item.weight, 0);
    for (const item of items) {
      left -= item.weight;
      if (left < 0) return item;
    }
    return items[items.length - 1]!;
  }

  hex(length: number): string {
    let text = '';
    while (text.length < length) {
      const word = this.uint32();
      text += HEX[word & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[(word >>> 16) & 0xff]!;
    }
    return text.slice(0, length);
  }

  digits(length: number): string {
    let text = '';
    for (let i = 0; i < length; i++) text += String(this.uint32() % 10);
    return text;
  }

  /** Shaped like `crypto.randomUUID()` (version 4), which is what the app gives its payments. */
  uuid(): string {
    const hex = this.hex(32);
    const variant = '89ab'[this.uint32() & 3]!;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20)}`;
  }
}

const HALF = 2 ** 23;

/**
 * A keyed shuffle of [0, 2^46): a four-round Feistel network over two 23-bit halves. Different
 * inputs always give different outputs, so numbering rows and shuffling the number gives values that
 * look random and are unique without remembering the ones already given.
 */
export function permute46(value: number, keys: readonly number[]): number {
  let left = Math.floor(value / HALF) % HALF;
  let right = value % HALF;
  for (const key of keys) {
    const next = left ^ (mix32(right ^ key) & (HALF - 1));
    left = right;
    right = next;
  }
  return left * HALF + right;
}
