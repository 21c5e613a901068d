/** The STK ResultCodes we name, and what each means for a payment (docs/daraja-protocol.md §4.2). */
import type { TransactionStatus } from '@mpesa/shared';

/**
 * What a Daraja ResultCode means for the transaction. Branch on the code, never on ResultDesc, whose
 * wording drifts from year to year (docs/daraja-protocol.md §4.2).
 */
export function statusForResultCode(resultCode: string): Exclude<TransactionStatus, 'pending'> {
  switch (resultCode) {
    case '0':
      return 'success';
    case '1032':
      return 'cancelled';
    case '1037': // the phone could not be reached, or nobody answered
    case '1019': // the prompt expired
      return 'timeout';
    default:
      return 'failed';
  }
}
