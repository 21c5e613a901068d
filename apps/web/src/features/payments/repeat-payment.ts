import type { PaymentRequest } from './api/initiate-payment';

/**
 * "Try again" on a payment that did not go through opens the form with its details, carried in
 * the navigation's state rather than the address, so that a phone number never lands in a link,
 * a log or the browser's history list. (The detail screen writes it: `tryAgainState`.)
 */
export interface RepeatPaymentState {
  repeat: PaymentRequest;
}

/** The details a navigation's state carries, or null (it may hold anything: it outlives reloads). */
export function repeatedPayment(state: unknown): PaymentRequest | null {
  const repeat = (state as Partial<RepeatPaymentState> | null)?.repeat;
  const fields = [repeat?.phoneNumber, repeat?.amount, repeat?.reference, repeat?.description];
  return repeat && fields.every((value) => typeof value === 'string') ? repeat : null;
}
