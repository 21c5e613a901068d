/**
 * Fastify's and Node's errors that are the client's doing, answered in words for people with codes
 * of ours; and any other 4xx, by its HTTP name.
 */
import { STATUS_CODES } from 'node:http';
import { HTTP_REFUSAL_CODES } from '@mpesa/shared';
import type { Answer } from './app-error.ts';
import { CSRF_TOKEN_MESSAGE, NOT_FOUND_MESSAGE } from './refusals.ts';

/** Fastify's and Node's errors that are the client's doing, in words for people. */
export const CLIENT_MISTAKES: Record<string, Answer> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    statusCode: 400,
    code: 'INVALID_BODY',
    message: 'The request body must be a JSON object',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    statusCode: 400,
    code: 'INVALID_JSON',
    message: 'The request body is not valid JSON',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    statusCode: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send the request as JSON (Content-Type: application/json)',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    statusCode: 413,
    code: 'BODY_TOO_LARGE',
    message: 'The request body is too large',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    statusCode: 400,
    code: 'INVALID_BODY',
    message: 'The request body does not match its Content-Length',
  },
  FST_ERR_NOT_FOUND: { statusCode: 404, code: 'NOT_FOUND', message: NOT_FOUND_MESSAGE },
  FST_ERR_INVALID_URL: {
    statusCode: 400,
    code: 'BAD_URL',
    message: 'The address is not valid',
  },
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: {
    statusCode: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send the request as JSON (Content-Type: application/json)',
  },
  FST_ERR_ROUTE_MISSING_CONTENT: {
    statusCode: 400,
    code: 'INVALID_BODY',
    message: 'The request body must be a JSON object',
  },
  FST_ERR_BAD_URL: {
    statusCode: 400,
    code: 'BAD_URL',
    message: 'The address is not valid: it has a broken %-escape',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    statusCode: 414,
    code: 'URL_TOO_LONG',
    message: 'The address is too long',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    statusCode: 408,
    code: 'REQUEST_TIMEOUT',
    message: 'The request took too long to arrive',
  },
  // @fastify/csrf-protection's refusals (features/operators/auth.routes.ts).
  FST_CSRF_MISSING_SECRET: {
    statusCode: 403,
    code: 'CSRF_TOKEN_INVALID',
    message: CSRF_TOKEN_MESSAGE,
  },
  FST_CSRF_INVALID_TOKEN: {
    statusCode: 403,
    code: 'CSRF_TOKEN_INVALID',
    message: CSRF_TOKEN_MESSAGE,
  },
  HPE_HEADER_OVERFLOW: {
    statusCode: 431,
    code: 'HEADERS_TOO_LARGE',
    message: 'The request headers are too large',
  },
};

/** Anything else Node cannot read on a connection (a broken chunked body, a client gone mid-request). */
export const UNREADABLE: Answer = {
  statusCode: 400,
  code: 'BAD_REQUEST',
  message: 'The request could not be read: it is not valid HTTP',
};

/** Any other refusal from Fastify or a plugin (a 4xx): said by its HTTP name, nothing more. */
export function httpRefusal(statusCode: number): Answer {
  const name = STATUS_CODES[statusCode] ?? 'Bad Request';
  const codes: Partial<Record<number, Answer['code']>> = HTTP_REFUSAL_CODES;
  return {
    statusCode,
    code: codes[statusCode] ?? 'BAD_REQUEST',
    message: `The request was refused: ${name}.`,
  };
}
