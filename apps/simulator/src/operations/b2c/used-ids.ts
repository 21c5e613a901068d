/**
 * The OriginatorConversationIDs B2C v3 requests have used (docs/daraja-protocol.md §M4.5): Daraja
 * refuses a repeated one "to avoid double disbursement", with `500.002.1001 Duplicate
 * OriginatorConversationID.` (§M4.1). For how long it remembers one is not published; the
 * simulator remembers each for 24 hours on its own clock (so `POST /_sim/clock/advance` frees it),
 * across a restart with SIM_STATE, until `POST /_sim/reset`.
 */
import type { SimClock } from '../../clock.ts';

export const USED_FOR_MS = 24 * 3600_000;
/** The most remembered at once; the oldest are forgotten first. */
const MAX_USED = 10_000;

export class UsedIds {
  readonly #clock: SimClock;
  /** Each id with the time it was used, in milliseconds, oldest first. */
  readonly #used = new Map<string, number>();

  constructor(clock: SimClock) {
    this.#clock = clock;
  }

  /** Whether `id` was used less than 24 hours ago. */
  has(id: string): boolean {
    const usedAt = this.#used.get(id);
    return usedAt !== undefined && this.#clock.now().getTime() - usedAt < USED_FOR_MS;
  }

  use(id: string): void {
    const now = this.#clock.now().getTime();
    this.#used.delete(id);
    this.#used.set(id, now);
    for (const [old, usedAt] of this.#used) {
      if (this.#used.size <= MAX_USED && now - usedAt < USED_FOR_MS) break;
      this.#used.delete(old);
    }
  }

  /** What SIM_STATE keeps: each id still remembered, with when it was used. */
  snapshot(): [string, string][] {
    return [...this.#used].map(([id, usedAt]) => [id, new Date(usedAt).toISOString()]);
  }

  restore(saved: [string, string][]): void {
    this.reset();
    for (const [id, usedAt] of saved) this.#used.set(id, Date.parse(usedAt));
  }

  reset(): void {
    this.#used.clear();
  }
}
