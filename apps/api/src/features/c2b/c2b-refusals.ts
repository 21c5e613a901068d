/**
 * The refusals of the receipt checks (features/c2b/receipt-checks.routes.ts): till and paybill payments
 * not set up, and a check that does not exist. Their codes are in ErrorCode
 * (packages/shared/src/error-codes.ts).
 */
import { AppError } from '../../errors.ts';

/** No C2B shortcode is set (MPESA_C2B_SHORTCODE), or M-PESA cannot be asked (no initiator). */
export const c2bNotSetUp = () =>
  new AppError(
    409,
    'C2B_NOT_SET_UP',
    'Till and paybill payments are not set up on this server (MPESA_C2B_SHORTCODE and an initiator, MPESA_INITIATOR_NAME), so M-PESA cannot be asked about a receipt.',
  );

export const receiptCheckNotFound = () =>
  new AppError(404, 'RECEIPT_CHECK_NOT_FOUND', 'There is no receipt check with this id.');
