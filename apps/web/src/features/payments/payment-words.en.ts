import {
  AMOUNT_TOO_SMALL_MESSAGE,
  INVALID_PHONE_MESSAGE,
  PROMPT_REFERENCE_LENGTH,
  REDIRECT_DELAY_MS,
} from '@mpesa/shared';
const SAME_DETAILS_AGAIN = 'Sending the same details again cannot start a second payment.';

/** The Make Payment screen's words; the specification's own are word for word (docs/product.md). */
export const en = {
  title: 'M-PESA Payment',
  /** "You are paying <business>." around the business's name. */
  payingBefore: 'You are paying ',
  payingAfter: '.',
  intro:
    'M-PESA will send a prompt to the phone number below: enter your M-PESA PIN there within about a minute, before the prompt expires.',
  /** For the shop's people signed in, who ask a customer to pay: "The customer pays <business>." */
  payingBeforeStaff: 'The customer pays ',
  introForStaff:
    'M-PESA will send a prompt to the customer’s phone number below: the customer enters their M-PESA PIN there within about a minute, before the prompt expires.',
  phoneLabel: 'Phone Number',
  phonePlaceholder: 'e.g., 0712345678 or +254712345678',
  phoneHint: 'Format: 07XXXXXXXX or +2547XXXXXXXX',
  /** Beside the specification's hint: what it leaves out. */
  phoneHintMore: '01… numbers too; spaces are fine.',
  amountLabel: 'Amount (KES)',
  amountPlaceholder: 'Amount in KES',
  referenceLabel: 'Reference',
  referencePlaceholder: 'Payment reference',
  referenceHint: `Optional. The M-PESA prompt shows its first ${PROMPT_REFERENCE_LENGTH} characters.`,
  descriptionLabel: 'Description',
  descriptionPlaceholder: 'Payment description',
  optional: 'Optional.',
  submit: 'Pay with M-PESA',
  processing: 'Processing...',
  success: 'Payment initiated! Check your phone to complete the transaction.',
  redirect: `Opening this payment’s details in ${REDIRECT_DELAY_MS / 1000} seconds.`,
  invalidPhone: INVALID_PHONE_MESSAGE,
  amountTooSmall: AMOUNT_TOO_SMALL_MESSAGE,
  failureFallback: 'Failed to initiate payment. Please try again.',
  /** When no answer came: what that means for the payment (seconds waited). */
  timedOut: (seconds: number) =>
    `The server did not answer within ${seconds} seconds, so the payment may have started: if your phone shows an M-PESA prompt, answer it. ${SAME_DETAILS_AGAIN}`,
  unreachable: `The server could not be reached. Check your connection, then try again. ${SAME_DETAILS_AGAIN}`,
  offline:
    'You are offline, so no payment request was sent. Connect to the internet, then try again.',
};

export type PaymentWords = typeof en;
