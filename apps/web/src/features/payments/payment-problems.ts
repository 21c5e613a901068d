import { MIN_AMOUNT, isClientValidPhone } from '@mpesa/shared';
import type { ErrorResponse } from '@mpesa/shared/contract';
import { ApiError } from '../../lib/api-client';
import { PAYMENT_TIMEOUT_MS, type PaymentRequest } from './api/initiate-payment';
import { paymentWords, type PaymentWords } from './payment-words';

export const FAILURE_FALLBACK = paymentWords.en.failureFallback;

/** The fields the form checks, and that a refusal's message can be shown under. */
export type CheckedField = 'phoneNumber' | 'amount';
/**
 * A field's problem: one of the specification's two checks, or the server's refusal (`failure`),
 * put in words when shown, in the language of the moment.
 */
export interface Invalid {
  field: CheckedField;
  failure?: unknown;
}

/**
 * The specification's checks, in its order (docs/product.md §5), each naming the field it is
 * about: every field in trouble at once, so that a payer corrects both in one go.
 */
export function validate(form: PaymentRequest): Invalid[] {
  const problems: Invalid[] = [];
  if (!isClientValidPhone(form.phoneNumber)) problems.push({ field: 'phoneNumber' });
  const amount = Number.parseFloat(form.amount);
  if (Number.isNaN(amount) || amount < MIN_AMOUNT) problems.push({ field: 'amount' });
  return problems;
}

/**
 * The thrown message, else the server body's message, else the fallback (docs/product.md §8);
 * `refusal` puts the server's refusal in the language of the moment (i18n/refusal-words.ts).
 */
export function failureMessage(
  error: unknown,
  words: PaymentWords,
  refusal: (error: unknown) => string,
): string {
  if (error instanceof ApiError) {
    if (error.message) return refusal(error);
    const body = error.body as { message?: unknown } | undefined;
    if (typeof body?.message === 'string' && body.message) return body.message;
    return words.failureFallback;
  }
  return error instanceof Error && error.message ? error.message : words.failureFallback;
}

/** What a field's problem says (a check's message, or the server's refusal). */
export function invalidMessage(
  invalid: Invalid,
  words: PaymentWords,
  refusal: (error: unknown) => string,
): string {
  if (invalid.failure !== undefined) return failureMessage(invalid.failure, words, refusal);
  return invalid.field === 'phoneNumber' ? words.invalidPhone : words.amountTooSmall;
}

/** The API's answer to a refused request; its code is undefined when the API did not answer (or a proxy did). */
function refusalOf(error: ApiError): Partial<Pick<ErrorResponse, 'code' | 'field'>> {
  const body = error.body as Partial<ErrorResponse> | undefined;
  return { code: body?.code, field: body?.field };
}

/** Whether the API itself answered (its body has a code), which settles an Idempotency-Key. */
export function answeredByApi(error: ApiError): boolean {
  return Boolean(refusalOf(error).code);
}

/**
 * The field a refusal by the server is about, so that its message is shown and heard there: the
 * server judges more than the browser's two checks (docs/product.md §5: a whole number, at most
 * 250,000 KES, a number M-PESA can prompt). A validation error names its `field`, whatever its
 * words; one that names none stays in the form's error box.
 */
export function fieldOf(error: unknown): CheckedField | null {
  if (!(error instanceof ApiError)) return null;
  const { code, field } = refusalOf(error);
  if (code === 'MPESA_INVALID_PHONE') return 'phoneNumber';
  if (code === 'MPESA_INVALID_AMOUNT') return 'amount';
  if (code !== 'VALIDATION_ERROR') return null;
  return field === 'phoneNumber' || field === 'amount' ? field : null;
}

/** When no answer came: what that means for the payment, under the fallback message (docs/product.md §8). */
export function noAnswerDetail(error: unknown, words: PaymentWords): string {
  if (!(error instanceof ApiError) || error.status !== 0) return '';
  if (error.timedOut) return words.timedOut(PAYMENT_TIMEOUT_MS / 1000);
  return navigator.onLine ? words.unreachable : words.offline;
}
