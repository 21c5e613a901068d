/**
 * What the payer reads when Daraja refuses or fails a push. Daraja's own words ("Bad Request - Invalid
 * PhoneNumber") are kept on the transaction; the payer gets a sentence they can act on.
 */
import { AppError } from '../errors.ts';
import { formatDuration } from '../lib/duration.ts';
import type { DarajaError } from '../daraja/daraja-error.ts';

export const BUSY_PHONE_MESSAGE =
  'A payment request is already waiting on this phone. Complete or cancel it, then try again in a minute.';

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
  const busy = (message: string, retryAfterS?: number) =>
    new AppError(429, 'PHONE_BUSY', message, retryAfterS === undefined ? {} : { retryAfterS });
  if (!holder || waitS === undefined) return busy(BUSY_PHONE_MESSAGE);
  if (holder.status !== 'pending') {
    return busy(
      'The last payment request to this phone has just ended. To protect the phone from repeated ' +
        `prompts, a new one can be sent in ${formatDuration(waitS)}.`,
      waitS,
    );
  }
  if (holder.checkout_request_id === null && Boolean(holder.push_outcome_unknown)) {
    return busy(
      'The last payment request to this phone was not confirmed by M-PESA, so it may still arrive ' +
        'or may already have been paid. Check the phone for a prompt or an M-PESA message before ' +
        `paying again. A new request can be sent in ${formatDuration(waitS)}.`,
      waitS,
    );
  }
  // Open until the payer answers or the prompt expires: how long that takes is not known.
  return busy(BUSY_PHONE_MESSAGE);
}

/** What the payer reads when M-PESA refused the push of the payment saved as `transactionId`. */
export function payerErrorFor(error: DarajaError, transactionId: string): AppError {
  const saved = { transactionId };
  if (error.kind === 'unreachable') {
    return new AppError(
      503,
      'MPESA_UNREACHABLE',
      'We could not reach M-PESA, so no payment request was sent. Please try again in a few minutes.',
      saved,
    );
  }
  const code = error.errorCode ?? '';
  const text = error.errorMessage ?? '';
  if (/Invalid PhoneNumber|Invalid PartyA/i.test(text)) {
    return new AppError(
      400,
      'MPESA_INVALID_PHONE',
      'M-PESA cannot send a payment request to this phone number. Please check it and try again.',
      saved,
    );
  }
  if (/Invalid Amount/i.test(text)) {
    return new AppError(
      400,
      'MPESA_INVALID_AMOUNT',
      'M-PESA did not accept this amount. Please check it and try again.',
      saved,
    );
  }
  if (/Unable to lock subscriber/i.test(text)) {
    return new AppError(429, 'PHONE_BUSY', BUSY_PHONE_MESSAGE, saved);
  }
  if (code.startsWith('500.003')) {
    return new AppError(
      503,
      'MPESA_BUSY',
      'M-PESA is busy right now. Please try again in a few minutes.',
      saved,
    );
  }
  return new AppError(
    502,
    'MPESA_REJECTED',
    'M-PESA could not start this payment. Please try again later.',
    saved,
  );
}
