/**
 * The refusals of payment links, each with a sentence its reader reads as it is (its Kiswahili in
 * the web app's refusal words). A payer reads the ones about paying; none names anyone who paid.
 */
import { AppError } from '../../errors.ts';

export const linkNotFound = () =>
  new AppError(
    404,
    'LINK_NOT_FOUND',
    'This payment link does not exist. Check the address you were sent.',
  );

/** A one-payment link paid already: nothing is sent. */
export const linkPaid = () =>
  new AppError(409, 'LINK_PAID', 'This link has already been paid. No money was sent.');

/** A one-payment link whose payment is under way (a prompt open, or its outcome awaited). */
export const linkBeingPaid = () =>
  new AppError(
    409,
    'LINK_BEING_PAID',
    'Someone is paying this link right now. If their payment does not go through, it opens again in a few minutes.',
  );

export const linkExpired = () =>
  new AppError(410, 'LINK_EXPIRED', 'This link has expired. Ask the shop to send you a new one.');

export const linkOff = () =>
  new AppError(
    410,
    'LINK_OFF',
    'The shop has switched this link off. Ask the shop to send you a new one.',
  );

/** The payer's amount below the link's minimum, or an amount given to a fixed-amount link. */
export const linkAmountBelow = (minimum: number) =>
  new AppError(
    400,
    'LINK_AMOUNT',
    `The amount must be at least ${minimum.toLocaleString('en-KE')} KES for this link.`,
    { field: 'amount' },
  );

/** A link's payments per minute (LINK_PAYMENTS_PER_MINUTE) spent. */
export const linkTooBusy = (retryAfterS: number) =>
  new AppError(
    429,
    'RATE_LIMITED',
    'This link is taking too many payments at once. Please wait a minute and try again.',
    { retryAfterS },
  );

/** An operator's links per hour (LINKS_PER_HOUR) spent. */
export const tooManyLinks = (max: number, retryAfterS: number) =>
  new AppError(
    429,
    'LINKS_RATE_LIMITED',
    `You have made ${max} links this hour, the most one person may. Try again later.`,
    { retryAfterS },
  );

/** M-PESA's QR code asked for where it cannot be made: no till or paybill set up for it. */
export const mpesaQrNotSetUp = () =>
  new AppError(
    409,
    'MPESA_QR_NOT_SET_UP',
    'M-PESA’s QR code is not set up on this server: it needs the shop’s till or paybill (MPESA_C2B_SHORTCODE). The link’s own QR code works without it.',
  );

/** M-PESA's QR code holds one amount: a link whose payer chooses theirs has none to give it. */
export const mpesaQrNeedsAmount = () =>
  new AppError(
    409,
    'MPESA_QR_NEEDS_AMOUNT',
    'M-PESA’s QR code holds a fixed amount, and the customer chooses the amount of this link. Use the link’s own QR code instead.',
  );

/** A link paid, expired or switched off: a code to pay it would take money it no longer asks for. */
export const mpesaQrLinkClosed = () =>
  new AppError(
    409,
    'LINK_CLOSED',
    'This link no longer takes payments (paid, expired or switched off), so M-PESA’s QR code is not made for it.',
  );

/** Daraja refused, or gave no image, or could not be reached. */
export const mpesaQrFailed = () =>
  new AppError(
    502,
    'MPESA_QR_FAILED',
    'M-PESA did not make the QR code just now. Please try again in a few minutes; the link’s own QR code works meanwhile.',
  );
