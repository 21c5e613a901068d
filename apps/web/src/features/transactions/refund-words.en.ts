import type { RefundBlock } from '@mpesa/shared/contract';
import { REFUND_REASON_MAX_LENGTH } from '@mpesa/shared';

/**
 * The words of a refund on the merchant's view of a payment (docs/product.md §10): the owner's
 * button and confirmation, the refund's life, and why a payment cannot be refunded.
 */
export const en = {
  title: 'Refund',
  refund: 'Refund',
  refundAgain: 'Try the refund again',
  confirmTitle: 'Refund this payment',
  /** What the confirmation shows: the whole payment goes back to whom. */
  amount: 'Amount',
  payer: 'To',
  payerName: 'Payer’s name',
  wholePayment: 'The whole payment goes back to the payer’s M-PESA. This cannot be undone.',
  reasonLabel: 'Why (kept on the payment’s timeline and in the audit trail)',
  /** "12 of 200 characters", said politely to screen readers as it changes. */
  reasonCount: (count: number) => `${count} of ${REFUND_REASON_MAX_LENGTH} characters`,
  /** The contract's own message (refundRequestSchema), word for word. */
  reasonTooShort: 'Please give the reason for the refund (at least 2 characters)',
  /** "Refund 450 KES", the amount already formatted. */
  confirm: (amount: string) => `Refund ${amount}`,
  sending: 'Sending to M-PESA…',
  cancel: 'Cancel',
  sendFailed: 'The refund could not be sent. Please check your connection and try again.',
  // The refund's life.
  requested: 'Sent to M-PESA, waiting for its answer.',
  /** The date already formatted. */
  reversed: (date: string, receipt: string | null) =>
    `Refunded on ${date}${receipt ? `, M-PESA receipt ${receipt}` : ''}. The money went back to the customer.`,
  failed: 'The refund did not go through: the money stayed with the shop.',
  /** Why, by M-PESA's code (docs/daraja-protocol.md §M7); any other in M-PESA's own words. */
  failedBecause: {
    R000001: 'M-PESA says this payment was already reversed.',
    R000002: 'M-PESA does not know this payment’s receipt.',
    '1': 'The shop’s M-PESA account holds too little money to give this back.',
    '2001':
      'The initiator’s password is wrong: the owner checks MPESA_INITIATOR_PASSWORD in the server’s settings.',
    '8006': 'The initiator is locked at M-PESA after wrong passwords: Safaricom can unlock it.',
  } as Readonly<Record<string, string>>,
  mpesaSaid: 'M-PESA said:',
  noReason: 'M-PESA gave no reason.',
  /** Who asked and when (the date already formatted), and why. */
  askedBy: (who: string, date: string) => `Asked for by ${who} on ${date}.`,
  reason: 'Reason:',
  /** Why the payment cannot be refunded (the API's `refundBlockedBy`). */
  blocked: {
    not_paid:
      'Only a paid payment can be refunded: M-PESA holds no money of this one to give back.',
    flagged: 'This payment is set aside for a person’s review: review it before refunding it.',
    too_old:
      'This payment is older than the server refunds (REFUND_MAX_AGE_DAYS): give the money back another way.',
    not_set_up:
      'Refunds are not set up on this server: the owner sets MPESA_INITIATOR_NAME and MPESA_INITIATOR_PASSWORD in its settings.',
    exists: 'A refund of this payment has already been asked for.',
  } satisfies Record<RefundBlock, string> as Record<RefundBlock, string>,
};

export type RefundWords = typeof en;
