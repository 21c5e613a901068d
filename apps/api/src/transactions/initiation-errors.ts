/**
 * What the payer reads when Daraja refuses or fails a push. Daraja's own words ("Bad Request - Invalid
 * PhoneNumber") are kept on the transaction; the payer gets a sentence they can act on.
 */
import { AppError } from '../errors.ts';
import { formatDuration } from '../lib/duration.ts';
import type { DarajaError } from '../daraja/daraja-error.ts';

export const BUSY_PHONE_MESSAGE =
  'A payment request is already waiting on this phone. Complete or cancel it, then try again in a minute.';

/**
 * Why a phone is held. A push that ended without M-PESA's acknowledgement may still have reached
 * the phone, and may even have been paid: the payer is told so, and when the phone is free again.
 */
export function busyPhoneMessage(
  holder:
    | {
        status: string;
        checkout_request_id: string | null;
        locked_until: string;
        push_outcome_unknown: unknown;
      }
    | undefined,
  now: Date,
): string {
  const unconfirmed =
    holder?.status === 'pending' &&
    holder.checkout_request_id === null &&
    Boolean(holder.push_outcome_unknown);
  if (!unconfirmed) return BUSY_PHONE_MESSAGE;
  const waitS = Math.max(1, Math.ceil((Date.parse(holder.locked_until) - now.getTime()) / 1000));
  return (
    'The last payment request to this phone was not confirmed by M-PESA, so it may still arrive ' +
    'or may already have been paid. Check the phone for a prompt or an M-PESA message before ' +
    `paying again. A new request can be sent in ${formatDuration(waitS)}.`
  );
}

export function payerErrorFor(error: DarajaError): AppError {
  if (error.kind === 'unreachable') {
    return new AppError(
      503,
      'MPESA_UNREACHABLE',
      'We could not reach M-PESA, so no payment request was sent. Please try again in a few minutes.',
    );
  }
  const code = error.errorCode ?? '';
  const text = error.errorMessage ?? '';
  if (/Invalid PhoneNumber|Invalid PartyA/i.test(text)) {
    return new AppError(
      400,
      'MPESA_INVALID_PHONE',
      'M-PESA cannot send a payment request to this phone number. Please check it and try again.',
    );
  }
  if (/Invalid Amount/i.test(text)) {
    return new AppError(
      400,
      'MPESA_INVALID_AMOUNT',
      'M-PESA did not accept this amount. Please check it and try again.',
    );
  }
  if (/Unable to lock subscriber/i.test(text)) {
    return new AppError(429, 'PHONE_BUSY', BUSY_PHONE_MESSAGE);
  }
  if (code.startsWith('500.003')) {
    return new AppError(
      503,
      'MPESA_BUSY',
      'M-PESA is busy right now. Please try again in a few minutes.',
    );
  }
  return new AppError(
    502,
    'MPESA_REJECTED',
    'M-PESA could not start this payment. Please try again later.',
  );
}
