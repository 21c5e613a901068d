/**
 * The refusals of payouts, each with a sentence the shop's people read as it is (its Kiswahili in
 * the web app's refusal words).
 */
import { AppError } from '../../errors.ts';

export const payoutNotFound = () => new AppError(404, 'PAYOUT_NOT_FOUND', 'Payout not found');

/** No initiator is set up: M-PESA cannot be asked to pay. */
export const payoutsNotSetUp = () =>
  new AppError(
    409,
    'PAYOUTS_NOT_SET_UP',
    'Payouts are not set up on this server: it needs the M-PESA initiator’s name and credential (MPESA_INITIATOR_NAME).',
  );

/** Approved or declined already, by someone (perhaps at the same moment). */
export const payoutDecided = (status: string) =>
  new AppError(
    409,
    'PAYOUT_DECIDED',
    `This payout is no longer waiting for approval: it is ${status}. Nothing was changed.`,
  );

/** Maker–checker: the one who proposed it may not approve it. */
export const payoutOwnApproval = () =>
  new AppError(
    403,
    'PAYOUT_OWN_APPROVAL',
    'Nobody approves their own payout: another owner must approve it.',
  );

/** Over PAYOUT_MAX_AMOUNT. */
export const payoutOverLimit = (max: number) =>
  new AppError(
    409,
    'PAYOUT_OVER_LIMIT',
    `A payout may be at most ${max.toLocaleString('en-KE')} KES, the shop’s limit for one payout.`,
    { field: 'amount' },
  );

/** Over PAYOUT_DAILY_LIMIT, with what is left today. */
export const payoutDailyLimit = (limit: number, left: number) =>
  new AppError(
    409,
    'PAYOUT_DAILY_LIMIT',
    `The shop pays out at most ${limit.toLocaleString('en-KE')} KES a day: ${Math.max(0, left).toLocaleString('en-KE')} KES is left today.`,
    { field: 'amount' },
  );

/** Only a failed payout can be corrected, once. */
export const payoutNotCorrectable = () =>
  new AppError(
    409,
    'PAYOUT_NOT_CORRECTABLE',
    'Only a payout M-PESA did not pay can be corrected, and only once: this one cannot.',
    { field: 'corrects' },
  );

/** A line of a single payout refused: its first problem, with its field. */
export const payoutInvalid = (field: string, message: string) =>
  new AppError(400, 'VALIDATION_ERROR', message, { field });

/** A batch file refused whole: each row's problems. */
export const payoutBatchRefused = (
  problems: readonly { row: number; field: string; message: string }[],
  summary: string,
) => new AppError(400, 'PAYOUT_BATCH_REFUSED', summary, { problems });
