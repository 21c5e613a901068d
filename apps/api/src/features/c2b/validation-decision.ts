/**
 * What the API answers M-PESA's C2B validation request (docs/daraja-protocol.md §M3.4): a pure
 * decision, tested as a table (validation-decision.test.ts). Any ResultCode but 0 cancels the
 * payment, and the code chooses the SMS the customer gets.
 */
import type { Config } from '../../config.ts';
import type { C2bPayment } from './c2b-body.ts';

export type C2bSettings = NonNullable<Config['c2b']>;

/** §M3.4's codes the API uses. */
export const C2B_REFUSALS = {
  /** The account number matches no open invoice. */
  account: 'C2B00012',
  /** The amount is outside C2B_MIN_AMOUNT..C2B_MAX_AMOUNT. */
  amount: 'C2B00013',
  /** Another shortcode's payment. */
  shortcode: 'C2B00015',
  /** "Other Error": what the API answers when it cannot decide and the registration says Cancelled. */
  other: 'C2B00016',
} as const;

export type ValidationAnswer =
  | { ResultCode: '0'; ResultDesc: 'Accepted' }
  | { ResultCode: (typeof C2B_REFUSALS)[keyof typeof C2B_REFUSALS]; ResultDesc: 'Rejected' };

export const ACCEPTED: ValidationAnswer = { ResultCode: '0', ResultDesc: 'Accepted' };
const rejected = (code: keyof typeof C2B_REFUSALS): ValidationAnswer => ({
  ResultCode: C2B_REFUSALS[code],
  ResultDesc: 'Rejected',
});

/** What a validation request asks the database: only `invoice` validation of a paybill does. */
export function needsInvoiceCheck(settings: C2bSettings, payment: C2bPayment): boolean {
  return (
    settings.validation === 'invoice' &&
    payment.channel === 'paybill' &&
    payment.shortcode === settings.shortcode
  );
}

/**
 * The answer decided from the request alone, with no database (the shortcode, the amount), or
 * null when only the `invoice` rule remains, which asks the database whether the account number
 * matches an open invoice. Answered before any database work, so that an amount out of range is
 * refused even when the database is unavailable.
 */
export function decideWithoutDatabase(
  settings: C2bSettings,
  payment: C2bPayment,
): ValidationAnswer | null {
  if (settings.validation === 'off') return ACCEPTED;
  // Never ours to take: M-PESA asks each shortcode's own URL, so this is a mistake or a forgery.
  if (payment.shortcode !== settings.shortcode) return rejected('shortcode');
  if (payment.amount < settings.minAmount || payment.amount > settings.maxAmount) {
    return rejected('amount');
  }
  return needsInvoiceCheck(settings, payment) ? null : ACCEPTED;
}

/**
 * The answer to a validation request for `payment`, given whether its account number matches an
 * open invoice (asked only when `decideWithoutDatabase` cannot answer; undefined otherwise).
 */
export function decideValidation(
  settings: C2bSettings,
  payment: C2bPayment,
  openInvoice: boolean | undefined,
): ValidationAnswer {
  return (
    decideWithoutDatabase(settings, payment) ??
    (openInvoice === true ? ACCEPTED : rejected('account'))
  );
}

/**
 * The answer when the API cannot decide (the body unreadable, the database unavailable or too
 * slow): what M-PESA would do anyway with no answer in time, by the registered ResponseType
 * (§M3.4): `Completed` takes the payment, `Cancelled` cancels it.
 */
export function undecided(settings: Pick<C2bSettings, 'responseType'>): ValidationAnswer {
  return settings.responseType === 'Completed' ? ACCEPTED : rejected('other');
}
