import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * An id that sorts in the order this process made it: milliseconds, a counter within the
 * millisecond, then randomness so that ids from different instances never collide. Events are
 * ordered by it when their timestamps tie.
 */
export function sortableId(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else {
    sequence++;
  }
  return `${lastMs.toString(16).padStart(12, '0')}${sequence.toString(16).padStart(6, '0')}${randomBytes(8).toString('hex')}`;
}
