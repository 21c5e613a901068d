/**
 * The small text rules every timeline sentence shares (events.routes.ts, money-event-sentences.ts):
 * reading an event's payload, and keeping a detail short.
 */

/** Longest `detail` sent; M-PESA's descriptions and people's notes can run long. */
const DETAIL_MAX = 300;

/** An event's payload (JSON as recorded), or undefined when it has none or is not JSON. */
export function parsedPayload(payload: string | null): unknown {
  if (payload === null) return undefined;
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

/** The text trimmed and cut to DETAIL_MAX characters; null when nothing is left. */
export function short(text: string | null | undefined): string | null {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return null;
  return trimmed.length > DETAIL_MAX ? `${trimmed.slice(0, DETAIL_MAX - 1)}…` : trimmed;
}
