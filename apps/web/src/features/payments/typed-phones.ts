/**
 * The number the payer typed for each payment this tab asked for, so that "Try again" can fill it
 * in where the payment's page shows it only in part (HISTORY_ACCESS=operators, or masked once old):
 * the payer should not have to type their own number twice, and the page must not show it whole.
 *
 * Kept in sessionStorage: this tab only, gone when it closes, never sent anywhere. Someone who opens
 * the payment's link in another tab or browser finds nothing here.
 */

const STORAGE_KEY = 'mpesa.typedPhones';
/** A payer's last few attempts. */
const KEPT = 20;

type Typed = [id: string, phone: string][];

function stored(): Typed {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    if (!Array.isArray(value)) return [];
    return value.filter(
      (entry): entry is [string, string] =>
        Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string',
    );
  } catch {
    return []; // Storage refused or spoiled: the payer types the number again.
  }
}

/** Remembers the number typed for the payment `id`, as it was typed. */
export function rememberTypedPhone(id: string, phone: string): void {
  try {
    const others = stored().filter(([each]) => each !== id);
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([[id, phone], ...others].slice(0, KEPT)));
  } catch {
    // As above.
  }
}

/** The number this tab typed for the payment `id`, or '' when it did not ask for it. */
export function typedPhone(id: string): string {
  return stored().find(([each]) => each === id)?.[1] ?? '';
}
