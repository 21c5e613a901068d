/**
 * Which refusal the payer reads when a phone is held, or when Daraja refuses or fails a push
 * (errors/refusals.ts words each). Daraja's own words ("Bad Request - Invalid PhoneNumber") are kept
 * on the transaction; the payer gets a sentence they can act on.
 */
import {
  mpesaBusy,
  mpesaInvalidAmount,
  mpesaInvalidPhone,
  mpesaRejected,
  mpesaUnreachable,
  phoneBusy,
  phoneCoolingDown,
  phoneUnconfirmed,
  type AppError,
} from '../../errors.ts';
import type { DarajaError } from '../../daraja/daraja-error.ts';

/** The phone's lock, and the payment holding it (findPhoneLockHolder). */
export interface PhoneLockHolder {
  status: string;
  checkout_request_id: string | null;
  locked_until: string;
  push_outcome_unknown: unknown;
}

/**
 * Why a phone is held, and when it is free again (`Retry-After`, where that is known):
 * - its prompt is still open (or on its way): the payer can answer or cancel it;
 * - its prompt has ended (paid, cancelled, failed, expired) and only the cooldown between prompts
 *   holds it: how long is left;
 * - its push ended without M-PESA's acknowledgement: the prompt may still arrive, or may already
 *   have been paid.
 */
export function busyPhoneError(holder: PhoneLockHolder | undefined, now: Date): AppError {
  const waitS = holder
    ? Math.max(1, Math.ceil((Date.parse(holder.locked_until) - now.getTime()) / 1000))
    : undefined;
  if (!holder || waitS === undefined) return phoneBusy();
  if (holder.status !== 'pending') return phoneCoolingDown(waitS);
  if (holder.checkout_request_id === null && Boolean(holder.push_outcome_unknown)) {
    return phoneUnconfirmed(waitS);
  }
  // Open until the payer answers or the prompt expires: how long that takes is not known.
  return phoneBusy();
}

/** What the payer reads when M-PESA refused the push of the payment saved as `transactionId`. */
export function payerErrorFor(error: DarajaError, transactionId: string): AppError {
  if (error.kind === 'unreachable') return mpesaUnreachable(transactionId);
  const code = error.errorCode ?? '';
  const text = error.errorMessage ?? '';
  if (/Invalid PhoneNumber|Invalid PartyA/i.test(text)) return mpesaInvalidPhone(transactionId);
  if (/Invalid Amount/i.test(text)) return mpesaInvalidAmount(transactionId);
  if (/Unable to lock subscriber/i.test(text)) return phoneBusy({ transactionId });
  if (code.startsWith('500.003')) return mpesaBusy(transactionId);
  return mpesaRejected(transactionId);
}
