/**
 * A looser limit on every payment request from an address, valid or not, counted in memory as the
 * request arrives (before its body is read). The per-address payment limit (rate-limit.repository.ts)
 * counts only requests that would send a prompt, so that mistyped ones do not spend it; this one
 * stops a flood of requests of any kind. It is counted per instance: it protects the instance's
 * own work, where the payment limit protects payers' phones across every instance.
 */

/** Addresses kept in one window at most: beyond that the window starts again (a flood of addresses). */
const ADDRESSES_KEPT = 100_000;

export interface FloodLimit {
  /** Counts a request from `key`; the seconds until its window ends when it is over the limit. */
  hit(key: string, now: Date): number | null;
}

export function floodLimit({ max, windowS }: { max: number; windowS: number }): FloodLimit {
  const windowMs = windowS * 1000;
  let window = -1;
  let hits = new Map<string, number>();
  return {
    hit(key, now) {
      if (max === 0) return null;
      const current = Math.floor(now.getTime() / windowMs);
      if (current !== window || hits.size >= ADDRESSES_KEPT) {
        window = current;
        hits = new Map();
      }
      const count = (hits.get(key) ?? 0) + 1;
      hits.set(key, count);
      if (count <= max) return null;
      return Math.ceil((windowMs - (now.getTime() % windowMs)) / 1000);
    },
  };
}
