/**
 * What a payment's outcome means, in a sentence the payer can act on. Daraja's own ResultDesc
 * ("The initiator information is invalid.", "Rule limited.") stays on the transaction as the
 * Response row of docs/product.md §2; these sit beside it. Keyed by ResultCode, never by ResultDesc,
 * whose wording drifts (docs/daraja-protocol.md §4.2).
 */
import type { TransactionStatus } from './constants.ts';

const PAID = 'You paid. M-PESA sends you a confirmation message.';

/** A sentence per Daraja ResultCode (docs/daraja-protocol.md §4.2, the codes a payer can meet). */
export const PAYER_SENTENCES: Readonly<Record<string, string>> = {
  '0': PAID,
  '1': 'Your M-PESA balance was too low for this payment, so no money moved. Top up, then try again.',
  '2': 'M-PESA declined the amount: it is below the smallest payment M-PESA allows. No money moved.',
  '3': 'M-PESA declined the amount: it is more than one M-PESA payment can be. No money moved.',
  '4': 'This payment would take you over your M-PESA daily limit, so no money moved.',
  '8': 'The business’s M-PESA account cannot take more money right now, so no money moved.',
  '17': 'M-PESA refused this because the same amount was sent from this phone less than 2 minutes ago. No money moved. Wait 2 minutes, then try again.',
  '1001':
    'Another M-PESA request was already open on your phone, so no money moved. Finish or cancel it, then try again.',
  '1019':
    'The prompt on your phone expired before it was answered, so no money moved. Try again and answer it within about a minute.',
  '1025':
    'M-PESA could not show the prompt on your phone, so no money moved. Try again with a shorter reference.',
  '1032': 'You cancelled the prompt on your phone, so no money moved.',
  '1037':
    'Your phone could not be reached, or the prompt was not answered in time, so no money moved. Check that the phone is on and has signal, then try again.',
  '2001': 'The M-PESA PIN was wrong, so no money moved. Try again with your M-PESA PIN.',
  '2028':
    'The business’s M-PESA account is not set up for this kind of payment, so no money moved. Please tell the business.',
  '8006':
    'Your M-PESA PIN is locked, so no money moved. Contact Safaricom to unlock it, then try again.',
  SFC_IC0003:
    'The business’s M-PESA account is not set up for this kind of payment, so no money moved. Please tell the business.',
};

/** When there is no ResultCode (a request M-PESA refused at once) or it is not one listed. */
const BY_STATUS: Readonly<Record<Exclude<TransactionStatus, 'pending'>, string>> = {
  success: PAID,
  failed: 'M-PESA did not complete this payment, so no money moved. You can try again.',
  cancelled: 'The payment was cancelled, so no money moved.',
  timeout:
    'The prompt on your phone was not answered in time, so no money moved. You can try again.',
  unknown:
    'M-PESA never told us whether this payment went through. Check your M-PESA messages before paying again.',
};

/**
 * The sentence for a payment's outcome, or null while it is pending (the required
 * "Please complete the payment on your phone." says it then, docs/product.md §2). A code is trusted only where it
 * agrees with the status: a success is never explained by a failure's code, nor the reverse.
 */
export function payerSentence(status: TransactionStatus, resultCode: string | null): string | null {
  if (status === 'pending') return null;
  if (status === 'success' || status === 'unknown') return BY_STATUS[status];
  const byCode =
    resultCode !== null && resultCode !== '0' ? PAYER_SENTENCES[resultCode] : undefined;
  return byCode ?? BY_STATUS[status];
}

/** Outcomes after which the same payment can safely be asked for again: no money moved. */
export function canTryAgain(status: TransactionStatus): boolean {
  return status === 'failed' || status === 'cancelled' || status === 'timeout';
}
