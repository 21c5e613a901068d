/** The review's refusal; its code is in ErrorCode (packages/shared/src/error-codes.ts). */
import { AppError } from '../../errors.ts';

/** A review the payment's state does not allow (features/review/review.ts says why). */
export const reviewRefused = (message: string) => new AppError(409, 'REVIEW_REFUSED', message);
