/**
 * Every `code` the API answers a failure with: stable words for programs, listed once so that the
 * contract (`errorResponseSchema`), the API's description and the web app know them all. The API
 * makes each of them in one place (apps/api/src/errors.ts).
 */
import { z } from 'zod';

/** The codes, by what they are about. */
const ERROR_CODES = [
  // The request as sent: its body, its address, its headers, HTTP itself.
  'VALIDATION_ERROR',
  'INVALID_BODY',
  'INVALID_JSON',
  'FORBIDDEN_KEY',
  'UNSUPPORTED_MEDIA_TYPE',
  'BODY_TOO_LARGE',
  'BAD_URL',
  'URL_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'BAD_REQUEST',
  'EXPECTATION_FAILED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'ORIGIN_NOT_ALLOWED',
  // Limits on who asks and how often.
  'TOO_MANY_REQUESTS',
  'RATE_LIMITED',
  'PHONE_BUSY',
  'TOO_MANY_EXPORTS',
  'FORBIDDEN',
  // Operators: signing in, the session, cross-site requests, roles.
  'UNAUTHENTICATED',
  'SIGN_IN_FAILED',
  'TOO_MANY_SIGN_INS',
  'CROSS_SITE_REQUEST',
  'CSRF_TOKEN_INVALID',
  'ROLE_NOT_ALLOWED',
  // The owner's screens: operators, their one-time password links, API keys and their scopes.
  'OPERATOR_NOT_FOUND',
  'OPERATOR_EXISTS',
  'LAST_OWNER',
  'PASSWORD_LINK_INVALID',
  'API_KEY_NOT_FOUND',
  'SCOPE_NOT_ALLOWED',
  // Webhooks (docs/webhooks.md): an endpoint, a delivery, a URL refused.
  'WEBHOOK_ENDPOINT_NOT_FOUND',
  'WEBHOOK_DELIVERY_NOT_FOUND',
  'WEBHOOK_URL_REFUSED',
  'WEBHOOK_ENDPOINTS_LIMIT',
  // The Idempotency-Key header.
  'INVALID_IDEMPOTENCY_KEY',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  // The history and the payments in it.
  'INVALID_CURSOR',
  'TRANSACTION_NOT_FOUND',
  'REVIEW_REFUSED',
  // Refunds (docs/product.md §10): why a payment cannot be refunded, and the receipt checks.
  'REFUND_NOT_PAID',
  'REFUND_FLAGGED',
  'REFUND_TOO_OLD',
  'REFUNDS_NOT_SET_UP',
  'REFUND_EXISTS',
  'REFUND_AMOUNT_MISMATCH',
  'RECEIPT_CHECK_NOT_FOUND',
  'C2B_NOT_SET_UP',
  // Payouts (issue 37): why one cannot be proposed, approved or declined.
  'PAYOUT_NOT_FOUND',
  'PAYOUT_BATCH_REFUSED',
  'PAYOUT_DECIDED',
  'PAYOUT_OWN_APPROVAL',
  'PAYOUT_OVER_LIMIT',
  'PAYOUT_DAILY_LIMIT',
  'PAYOUTS_NOT_SET_UP',
  'PAYOUT_NOT_CORRECTABLE',
  // Payment links (issue 38): why one cannot be made, found or paid.
  'LINK_NOT_FOUND',
  'LINK_PAID',
  'LINK_BEING_PAID',
  'LINK_EXPIRED',
  'LINK_OFF',
  'LINK_AMOUNT',
  'LINKS_RATE_LIMITED',
  'LINK_CLOSED',
  'MPESA_QR_NOT_SET_UP',
  'MPESA_QR_NEEDS_AMOUNT',
  'MPESA_QR_FAILED',
  // M-PESA's refusals of a push, and its silence.
  'MPESA_INVALID_PHONE',
  'MPESA_INVALID_AMOUNT',
  'MPESA_REJECTED',
  'MPESA_BUSY',
  'MPESA_UNREACHABLE',
  'MPESA_NO_ANSWER',
  // The server itself.
  'DATABASE_UNAVAILABLE',
  'SHUTTING_DOWN',
  'INTERNAL_ERROR',
  // The other HTTP refusals' names (HTTP_REFUSAL_CODES), for what has no words of ours.
  'UNAUTHORIZED',
  'PAYMENT_REQUIRED',
  'NOT_ACCEPTABLE',
  'PROXY_AUTHENTICATION_REQUIRED',
  'CONFLICT',
  'GONE',
  'LENGTH_REQUIRED',
  'PRECONDITION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'RANGE_NOT_SATISFIABLE',
  'I_M_A_TEAPOT',
  'MISDIRECTED_REQUEST',
  'UNPROCESSABLE_ENTITY',
  'LOCKED',
  'FAILED_DEPENDENCY',
  'TOO_EARLY',
  'UPGRADE_REQUIRED',
  'PRECONDITION_REQUIRED',
  'REQUEST_HEADER_FIELDS_TOO_LARGE',
  'UNAVAILABLE_FOR_LEGAL_REASONS',
] as const;

// Pure: the web app imports this package for its constants, and must not download zod for this.
export const ErrorCode = /* @__PURE__ */ z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

/**
 * Any other refusal by Fastify or one of its plugins (a 4xx the API has no words of its own for)
 * is answered with the code of its HTTP status's name: Node's names, written as codes.
 */
export const HTTP_REFUSAL_CODES = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  407: 'PROXY_AUTHENTICATION_REQUIRED',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  410: 'GONE',
  411: 'LENGTH_REQUIRED',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  417: 'EXPECTATION_FAILED',
  418: 'I_M_A_TEAPOT',
  421: 'MISDIRECTED_REQUEST',
  422: 'UNPROCESSABLE_ENTITY',
  423: 'LOCKED',
  424: 'FAILED_DEPENDENCY',
  425: 'TOO_EARLY',
  426: 'UPGRADE_REQUIRED',
  428: 'PRECONDITION_REQUIRED',
  429: 'TOO_MANY_REQUESTS',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  451: 'UNAVAILABLE_FOR_LEGAL_REASONS',
} as const satisfies Record<number, ErrorCode>;
