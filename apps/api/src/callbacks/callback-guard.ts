/**
 * Who may deliver a callback. Daraja signs nothing, so an unguessable path token (and, in
 * production, Safaricom's published source addresses) is what tells a genuine callback from a
 * forged one (docs/daraja-protocol.md §4.3). The same for every kind of callback.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { callbackForbidden, notFound } from '../errors.ts';
import { addressList } from '../lib/client-address.ts';

export interface CallbackGuardOptions {
  /** The path token (MPESA_CALLBACK_SECRET, or the one kept in the data folder). */
  secret: string;
  /** Addresses allowed to deliver callbacks; empty allows any. */
  allowedIps: readonly string[];
}

/** Compares secrets in constant time, whatever their lengths, so the path token cannot be guessed byte by byte. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Throws the refusal for a sender off the allow-list (403) or a wrong secret (404, as for any
 * address that is not there), and logs it; returns for a callback that may be taken.
 */
export function callbackGuard({
  secret,
  allowedIps,
}: CallbackGuardOptions): (given: string, ip: string, log: FastifyBaseLogger) => void {
  const allowed = addressList(allowedIps);
  return (given, ip, log) => {
    if (allowedIps.length > 0 && !allowed(ip)) {
      log.warn({ ip }, 'callback from an address not on the allow-list refused');
      throw callbackForbidden();
    }
    if (!sameSecret(given, secret)) {
      log.warn({ ip }, 'callback with a wrong secret refused');
      throw notFound();
    }
  };
}
