import {
  DEFAULT_DESCRIPTION,
  DEFAULT_REFERENCE,
  TRANSACTION_NOT_FOUND_MESSAGE,
} from '@mpesa/shared';

/*
 * The words of a payment's page, the payer's view and the merchant's. The specification's row
 * names, buttons and messages (docs/product.md §2) stay word for word in English.
 */

// "I have paid" and what it says after asking M-PESA (the tests pin these).
export const I_HAVE_PAID = 'I have paid';
export const ASKING = 'Asking M-PESA…';
export const STILL_WAITING =
  'M-PESA has not received your payment yet. If you have entered your PIN, wait a few seconds and ask again.';
export const NOT_SENT =
  'M-PESA has not confirmed the payment request yet. Please wait a few seconds and ask again.';
export const UNREACHABLE =
  'M-PESA could not be reached just now. Please ask again in a few seconds.';
export const ANSWERED = 'M-PESA has answered: the status above is up to date.';
export const FAILED = 'Your request could not be sent. Please check your connection and try again.';

export const en = {
  title: 'Transaction Details',
  loading: 'Loading transaction details...',
  notFound: TRANSACTION_NOT_FOUND_MESSAGE,
  fetchFailed: 'Failed to fetch transaction details',
  completeOnPhone: 'Please complete the payment on your phone.',
  reference: 'Reference',
  phoneNumber: 'Phone Number',
  amount: 'Amount',
  description: 'Description',
  /** The stored defaults of a field left empty, as this language says them. */
  defaults: { reference: DEFAULT_REFERENCE, description: DEFAULT_DESCRIPTION },
  /** A till or paybill payment's reference or description when the customer gave none. */
  notGiven: 'None given',
  createdAt: 'Created At',
  receipt: 'M-PESA Receipt',
  transactionDate: 'Transaction Date',
  response: 'Response',
  /** Opens M-PESA's own text on a page in another language (unused in English, where it shows). */
  responseInEnglish: 'In English, as M-PESA wrote it',
  meaning: 'What this means',
  why: 'Why',
  /** A till or paybill payment: how it came, and the payer's name as M-PESA gives it. */
  paidThrough: 'Paid through',
  channels: {
    till: 'Till (Lipa na M-PESA, from the phone’s own menu)',
    paybill: 'Paybill (Lipa na M-PESA, from the phone’s own menu)',
  },
  payerName: 'Payer’s name',
  link: 'Payment link',
  throughLink: 'Paid through one of the shop’s payment links',
  tryAgain: 'Try again',
  backToTransactions: 'Back to Transactions',
  anotherPayment: 'Make Another Payment',
  // "I have paid"
  iHavePaid: I_HAVE_PAID,
  asking: ASKING,
  stillWaiting: STILL_WAITING,
  notSent: NOT_SENT,
  unreachable: UNREACHABLE,
  answered: ANSWERED,
  checkFailed: FAILED,
  /**
   * "I have paid" refused for asking too often (TOO_MANY_REQUESTS, with Retry-After): null in
   * English, where the API's own sentence says which limit.
   */
  checkTooOften: (_retryAfterS: number | undefined): string | null => null,
  // The receipt's copy button
  copyReceipt: 'Copy receipt',
  copied: 'Copied',
  copyFailed: 'Could not copy: select the receipt number and copy it.',
  // The timeline
  timeline: 'Timeline',
  timelineLoading: 'Loading timeline...',
  timelineFailed: 'The timeline could not be loaded.',
  timelineEmpty: 'Nothing has been recorded yet.',
  darajaWords: 'Daraja’s words',
  // The merchant's view
  needsReview: 'Needs a person’s review.',
  mpesaMessages: 'M-PESA’s own messages',
  noCallback: 'No callback from M-PESA has arrived for this payment.',
  callbackReceived: 'Callback received',
  callbackAsReceived: (n: number) => `Callback ${n} as received`,
  // The review form
  reviewTitle: 'Review this payment',
  statementShows: 'What the M-PESA statement shows',
  chooseOne: 'Choose one',
  settleAs: {
    success: 'Paid: the M-PESA statement shows the money',
    failed: 'Not paid: the statement does not show it',
    cancelled: 'Cancelled by the customer',
    timeout: 'The prompt was not answered',
  },
  reviewNote: 'Why (kept on the payment’s timeline)',
  saving: 'Saving...',
  saveReview: 'Save review',
  reviewFailed: 'The review could not be saved. Please try again.',
  reviewSaved: 'Review saved. The note is on the payment’s timeline.',
};

export type DetailsWords = typeof en;
