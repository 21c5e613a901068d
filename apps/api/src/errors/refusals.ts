/**
 * The refusals the API makes across its features, one factory each, with its status, its code and
 * its words (a feature's own are beside it: features/<name>/*-refusals.ts): the code elsewhere
 * decides which to throw, and never writes a code or a payer's sentence of its own.
 */
import { messages } from '@mpesa/shared';
import { MAX_LENGTH } from '../lib/stored-lengths.ts';
import { formatDuration } from '../lib/duration.ts';
import { AppError, type AppErrorOptions } from './app-error.ts';

export const GENERIC_FAILURE = 'Something went wrong on our side. Please try again.';

/** Any address with nothing behind it, in the API (and a callback path with a wrong secret). */
export const NOT_FOUND_MESSAGE = 'There is nothing at this address. Check the URL.';

/** A failure of ours: what went wrong stays in the log. */
export const internalError = () => new AppError(500, 'INTERNAL_ERROR', GENERIC_FAILURE);

// The request as sent.

/** A value the contract refuses: the first problem, in words, and the input it was in. */
export const validationError = (message: string, field?: string) =>
  new AppError(400, 'VALIDATION_ERROR', message, field === undefined ? {} : { field });

/** A JSON body with a key that could poison objects (`__proto__`, `constructor.prototype`). */
export const forbiddenKey = () =>
  new AppError(
    400,
    'FORBIDDEN_KEY',
    'The request body must not use the keys "__proto__" or "constructor.prototype"',
  );

/** An HTTP/1.1 request without the Host header HTTP/1.1 requires. */
export const missingHostHeader = () =>
  new AppError(400, 'BAD_REQUEST', 'The request has no Host header (HTTP/1.1 requires one)');

/** An address with nothing behind it. */
export const notFound = () => new AppError(404, 'NOT_FOUND', NOT_FOUND_MESSAGE);

/** A known address asked with a method it does not answer (405, with `Allow`). */
export function methodNotAllowed(method: string, allowed: readonly string[]): AppError {
  const shown = allowed.filter((each) => each !== 'HEAD' && each !== 'OPTIONS');
  const list = shown.length > 1 ? `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}` : shown[0];
  return new AppError(
    405,
    'METHOD_NOT_ALLOWED',
    `This address does not answer ${method}: use ${list ?? allowed.join(', ')}.`,
    { allow: allowed },
  );
}

/** CONNECT, which Node would answer on its own: this is no proxy. */
export const connectNotSupported = () =>
  new AppError(405, 'METHOD_NOT_ALLOWED', 'CONNECT is not supported: this is not a proxy');

/** An `Expect` header Node cannot meet. */
export const expectationFailed = () =>
  new AppError(
    417,
    'EXPECTATION_FAILED',
    'The request asks for an Expect the server does not support',
  );

/** A CORS preflight from a page on an origin CORS_ORIGINS does not list. */
export const originNotAllowed = () =>
  new AppError(
    403,
    'ORIGIN_NOT_ALLOWED',
    'Pages on this origin may not call this API from a browser: it is not in the server’s CORS_ORIGINS setting',
  );

// Limits on who asks, and how often.

export const TOO_MANY_REQUESTS_MESSAGE =
  'Too many requests from your network. Please wait a minute and try again.';

/** The looser limit on every payment request from an address: wait this long. */
export const tooManyRequests = (waitS: number) =>
  new AppError(429, 'TOO_MANY_REQUESTS', TOO_MANY_REQUESTS_MESSAGE, { retryAfterS: waitS });

export const RATE_LIMITED_MESSAGE =
  'Too many payment requests from your network. Please wait a minute and try again.';

/** The address's allowance of payment requests is spent until its window ends, in `retryAfterS`. */
export const rateLimited = (retryAfterS: number) =>
  new AppError(429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE, { retryAfterS });

/** A callback from an address not on MPESA_CALLBACK_ALLOWED_IPS. */
export const callbackForbidden = () =>
  new AppError(403, 'FORBIDDEN', 'Callbacks are not accepted from this address');

/** As many exports as this server runs at once are under way: ask again in `retryAfterS`. */
export const tooManyExports = (retryAfterS: number) =>
  new AppError(
    429,
    'TOO_MANY_EXPORTS',
    'Other exports are under way on this server. Please try again in a few seconds.',
    { retryAfterS },
  );

// Operators (operators/): signing in, the session, cross-site requests, roles.

/** A merchant's route asked with no valid session (none, expired, revoked, signed out). */
export const unauthenticated = () =>
  new AppError(401, 'UNAUTHENTICATED', 'Sign in to see this. Your session may have ended.');

/** The same answer whether the name or the password was wrong, so neither is revealed. */
export const signInFailed = () =>
  new AppError(401, 'SIGN_IN_FAILED', 'The name or password is not right.');

/** Too many failed sign-ins for this name or from this network: wait `retryAfterS`. */
export const tooManySignIns = (retryAfterS: number) =>
  new AppError(
    429,
    'TOO_MANY_SIGN_INS',
    `Too many failed sign-ins. Please wait ${formatDuration(retryAfterS)} and try again.`,
    { retryAfterS },
  );

/** A request that changes something, sent by a page on another site (Origin, Sec-Fetch-Site). */
export const crossSiteRequest = () =>
  new AppError(
    403,
    'CROSS_SITE_REQUEST',
    'This request came from a page on another site, so it was refused.',
  );

/** A state-changing request without the CSRF token GET /api/auth/csrf gives (or with a wrong one). */
export const CSRF_TOKEN_MESSAGE =
  'The request has no valid X-CSRF-Token header. Fetch one from /api/auth/csrf and send it.';

/** A signed-in operator whose role does not allow this. */
export const roleNotAllowed = () =>
  new AppError(403, 'ROLE_NOT_ALLOWED', 'Your role does not allow this. Ask an owner.');

// API keys (keys/): `Authorization: Bearer <key>`.

/** A key that is not one of ours, or was revoked: never said which. */
export const apiKeyInvalid = () =>
  new AppError(401, 'UNAUTHENTICATED', 'This API key is not valid. Ask an owner for a new one.');

/** A valid key whose scope does not cover this route. */
export const scopeNotAllowed = () =>
  new AppError(403, 'SCOPE_NOT_ALLOWED', 'This API key’s scope does not allow this.');

export const apiKeyNotFound = () =>
  new AppError(404, 'API_KEY_NOT_FOUND', 'There is no API key with this id.');

// A phone still held by an earlier prompt (initiation-errors.ts says which of these applies).

export const BUSY_PHONE_MESSAGE =
  'A payment request is already waiting on this phone. Complete or cancel it, then try again in a minute.';

/** A prompt still open (or on its way), or M-PESA's "Unable to lock subscriber". */
export const phoneBusy = (options: Pick<AppErrorOptions, 'transactionId'> = {}) =>
  new AppError(429, 'PHONE_BUSY', BUSY_PHONE_MESSAGE, options);

/** The phone's last prompt has ended; only the cooldown between prompts holds it, `waitS` more. */
export const phoneCoolingDown = (waitS: number) =>
  new AppError(
    429,
    'PHONE_BUSY',
    'The last payment request to this phone has just ended. To protect the phone from repeated ' +
      `prompts, a new one can be sent in ${formatDuration(waitS)}.`,
    { retryAfterS: waitS },
  );

/** The phone's last push ended without M-PESA's acknowledgement: it may still prompt, or be paid. */
export const phoneUnconfirmed = (waitS: number) =>
  new AppError(
    429,
    'PHONE_BUSY',
    'The last payment request to this phone was not confirmed by M-PESA, so it may still arrive ' +
      'or may already have been paid. Check the phone for a prompt or an M-PESA message before ' +
      `paying again. A new request can be sent in ${formatDuration(waitS)}.`,
    { retryAfterS: waitS },
  );

// The Idempotency-Key header.

export const invalidIdempotencyKey = () =>
  new AppError(
    400,
    'INVALID_IDEMPOTENCY_KEY',
    `The Idempotency-Key header must be 1 to ${MAX_LENGTH.idempotencyKey} visible characters`,
  );

export const idempotencyKeyReused = () =>
  new AppError(
    422,
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was already used for a different payment request. Send a new key for a new payment.',
  );

export const idempotencyKeyInUse = () =>
  new AppError(
    409,
    'IDEMPOTENCY_KEY_IN_USE',
    'A payment request with this Idempotency-Key is still being processed. Check the transaction history before trying again.',
  );

// The history.

export const invalidCursor = () =>
  new AppError(
    400,
    'INVALID_CURSOR',
    'cursor is not one this server gave; start again from the first page',
  );

export const transactionNotFound = () =>
  new AppError(404, 'TRANSACTION_NOT_FOUND', messages.transactionNotFound);

// M-PESA's refusals of the push of the payment saved as `transactionId` (initiation-errors.ts).

export const mpesaUnreachable = (transactionId: string) =>
  new AppError(
    503,
    'MPESA_UNREACHABLE',
    'We could not reach M-PESA, so no payment request was sent. Please try again in a few minutes.',
    { transactionId },
  );

export const mpesaInvalidPhone = (transactionId: string) =>
  new AppError(
    400,
    'MPESA_INVALID_PHONE',
    'M-PESA cannot send a payment request to this phone number. Please check it and try again.',
    { transactionId },
  );

export const mpesaInvalidAmount = (transactionId: string) =>
  new AppError(
    400,
    'MPESA_INVALID_AMOUNT',
    'M-PESA did not accept this amount. Please check it and try again.',
    { transactionId },
  );

export const mpesaBusy = (transactionId: string) =>
  new AppError(503, 'MPESA_BUSY', 'M-PESA is busy right now. Please try again in a few minutes.', {
    transactionId,
  });

export const mpesaRejected = (transactionId: string) =>
  new AppError(
    502,
    'MPESA_REJECTED',
    'M-PESA could not start this payment. Please try again later.',
    { transactionId },
  );

/** A push M-PESA never acknowledged: the payment stays pending, and is reconciled. */
export const mpesaNoAnswer = (transactionId: string) =>
  new AppError(
    504,
    'MPESA_NO_ANSWER',
    'M-PESA did not confirm the payment request. If a prompt reaches your phone you can still complete it; this payment will update on its own.',
    { transactionId },
  );

// The server itself.

/** A request that arrives while the server closes: a load balancer tries another. */
export const shuttingDown = () =>
  new AppError(503, 'SHUTTING_DOWN', 'The server is restarting. Please try again.');

/** How soon a client is told to ask again while the database is unavailable, in seconds. */
export const DATABASE_RETRY_AFTER_S = 5;

export const DATABASE_UNAVAILABLE_MESSAGE =
  'Our database is not answering right now. Please try again in a few seconds.';

/**
 * The database cannot be reached, or cannot take the work now (db/unavailable.ts): an outage, not
 * a fault in the request, and one that passes. A callback answered so is not taken for accepted.
 */
export const databaseUnavailable = (
  options: { cause?: unknown; transactionId?: string; message?: string } = {},
) =>
  new AppError(503, 'DATABASE_UNAVAILABLE', options.message ?? DATABASE_UNAVAILABLE_MESSAGE, {
    retryAfterS: DATABASE_RETRY_AFTER_S,
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    ...(options.transactionId === undefined ? {} : { transactionId: options.transactionId }),
  });

/**
 * The database went away after the payment was saved, while M-PESA's answer to the push was being
 * recorded: a prompt may be on its way to the phone. The payment stays pending (a callback is
 * matched to it by phone and amount, else reconciliation settles it), the phone stays held, and the
 * payer is told not to pay twice. Its Idempotency-Key stays taken: the same request sent again is
 * told to check the history, and prompts no one.
 */
export const answerNotRecorded = (transactionId: string, cause?: unknown) =>
  databaseUnavailable({
    transactionId,
    cause,
    message:
      'We could not record M-PESA’s answer to this payment request. If a prompt reaches your phone you can still complete it; this payment will update on its own.',
  });
