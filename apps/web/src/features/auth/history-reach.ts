import { useSyncExternalStore } from 'react';
import { useConfig } from '../system/api/system-api';

/*
 * Whether this page may offer the history (the header's "Transactions", a payment's "Back to
 * Transactions"): always where it is open to all, as the specification describes; where it is for
 * the shop's people only (HISTORY_ACCESS=operators), only to someone signed in, so that a payer is
 * never led to a page they cannot open. Whoever is signed in is known to the operator bar, which
 * comes with the other screens; it says so here, where the first screen can read it without them.
 */

let signedIn = false;
const listeners = new Set<() => void>();

/** Said by the operator bar (operator-bar.tsx) whenever who is signed in changes. */
export function setSignedIn(now: boolean): void {
  if (now === signedIn) return;
  signedIn = now;
  listeners.forEach((listener) => listener());
}

/** Whether one of the shop's people is signed in on this page. */
export function useSignedIn(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => signedIn,
  );
}

/**
 * True unless the history is known to be closed to this visitor: while /api/config has not come,
 * the header stays as the specification draws it.
 */
export function useHistoryReachable(): boolean {
  const config = useConfig();
  const someoneSignedIn = useSignedIn();
  return config?.historyOpen !== false || someoneSignedIn;
}

/** For the tests: each one starts with no one signed in. */
export function forgetSignedIn(): void {
  signedIn = false;
}
