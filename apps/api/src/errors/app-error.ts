/**
 * The one error type: an HTTP status, a stable machine code (the shared contract's ErrorCode) and
 * a sentence a payer can read. refusals.ts makes each of them; answer.ts sends them.
 */
import type { ErrorCode } from '@mpesa/shared';

export interface AppErrorOptions {
  cause?: unknown;
  /** Sent as `Retry-After`: when asking again can succeed, in seconds. */
  retryAfterS?: number;
  /** The saved payment the refusal is about (a push M-PESA refused is kept as failed). */
  transactionId?: string;
  /** Sent as `Allow` with a 405: the methods the address does answer. */
  allow?: readonly string[];
  /** The input the refused value was in (a body's field, a query parameter). */
  field?: string;
  /** A batch file refused: each row's problems. */
  problems?: readonly { row: number; field: string; message: string }[];
}

/** What an error answers: its status, and the body's code, sentence and field. */
export interface Answer {
  statusCode: number;
  code: ErrorCode;
  message: string;
  field?: string | undefined;
}

export class AppError extends Error implements Answer {
  override name = 'AppError';
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly retryAfterS: number | undefined;
  readonly transactionId: string | undefined;
  readonly allow: readonly string[] | undefined;
  readonly field: string | undefined;
  readonly problems: AppErrorOptions['problems'];

  constructor(statusCode: number, code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.statusCode = statusCode;
    this.code = code;
    this.retryAfterS = options.retryAfterS;
    this.transactionId = options.transactionId;
    this.allow = options.allow;
    this.field = options.field;
    this.problems = options.problems;
  }
}
