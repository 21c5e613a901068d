/** OAuth access tokens: valid for SIM_TOKEN_TTL_S after issue; several may be valid at once. */
import { accessToken } from './ids.ts';
import { SimClock } from './clock.ts';

export class TokenStore {
  readonly #ttlMs: number;
  readonly #tokens = new Map<string, number>();
  readonly #clock: SimClock;

  constructor(ttlS: number, clock = new SimClock()) {
    this.#ttlMs = ttlS * 1000;
    this.#clock = clock;
  }

  issue(now = this.#clock.nowMs()): { token: string; expiresInS: number } {
    for (const [token, expiresAt] of this.#tokens) if (expiresAt <= now) this.#tokens.delete(token);
    const token = accessToken();
    this.#tokens.set(token, now + this.#ttlMs);
    this.onChange?.();
    // Daraja answers 3599 for a 3600 s token.
    return { token, expiresInS: Math.max(1, Math.round(this.#ttlMs / 1000) - 1) };
  }

  isValid(token: string, now = this.#clock.nowMs()): boolean {
    const expiresAt = this.#tokens.get(token);
    return expiresAt !== undefined && expiresAt > now;
  }

  /** Makes every issued token invalid, as if it had expired. */
  expireAll(): void {
    this.#tokens.clear();
    this.onChange?.();
  }

  /** Called when a token is issued or all are expired (SIM_STATE keeps them). */
  onChange: (() => void) | undefined;

  /** The tokens still valid, with when each expires (ms since the epoch). */
  snapshot(): [string, number][] {
    const now = this.#clock.nowMs();
    return [...this.#tokens].filter(([, expiresAt]) => expiresAt > now);
  }

  restore(tokens: [string, number][]): void {
    this.#tokens.clear();
    for (const [token, expiresAt] of tokens) this.#tokens.set(token, expiresAt);
  }
}
