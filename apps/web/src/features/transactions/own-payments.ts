/**
 * The payments this browser asked for, so that "Try again" is offered only to the payer of a
 * recent payment (HISTORY_ACCESS=operators): a link to a payer's page can be passed on, and weeks
 * later it must not put a stranger one click from prompting that payer's phone again.
 *
 * A payment counts as this browser's when its page was reached inside the app (the form opens it
 * after the request is accepted), not by opening its address: React Router gives the first
 * location of a page load the key "default", and every in-app navigation another. The payer's
 * page is the only screen a payer can reach that way: the history asks them to sign in.
 */

const STORAGE_KEY = 'mpesa.ownPayments';
/** How many are remembered: a payer's last few attempts. */
const KEPT = 20;
/** "Recent": past this, the payer starts afresh from the form. */
export const TRY_AGAIN_WITHIN_MS = 60 * 60_000;

function stored(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return []; // Storage refused or spoiled: no "Try again", the form is one link away.
  }
}

/** Records that this browser opened `id`'s page from inside the app. */
export function rememberOwnPayment(id: string): void {
  try {
    const ids = stored().filter((each) => each !== id);
    localStorage.setItem(STORAGE_KEY, JSON.stringify([id, ...ids].slice(0, KEPT)));
  } catch {
    // As above: only the offer to try again is lost.
  }
}

/**
 * Whether this browser asked for `id` (its page reached `inApp` now, or remembered from before),
 * created less than an hour before `now`.
 */
export function isOwnRecentPayment(
  id: string,
  createdAt: string,
  { inApp, now = Date.now() }: { inApp: boolean; now?: number },
): boolean {
  const age = now - Date.parse(createdAt);
  return age >= 0 && age < TRY_AGAIN_WITHIN_MS && (inApp || stored().includes(id));
}
