/**
 * Why a call to Daraja did not give an answer we can use.
 *
 * - `rejected`: Daraja answered with its error envelope; the request was refused.
 * - `unreachable`: the request never reached Daraja (connection refused, DNS failure); safe to
 *   treat as not sent.
 * - `unknown`: the request may have reached Daraja but no usable answer came back (timeout,
 *   broken connection, a body that is not Daraja's). A push in this state may still prompt the payer.
 */
export type DarajaErrorKind = 'rejected' | 'unreachable' | 'unknown';

export class DarajaError extends Error {
  override name = 'DarajaError';
  readonly kind: DarajaErrorKind;
  readonly httpStatus: number | undefined;
  readonly errorCode: string | undefined;
  readonly errorMessage: string | undefined;

  constructor(
    kind: DarajaErrorKind,
    message: string,
    details: {
      httpStatus?: number;
      errorCode?: string;
      errorMessage?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: details.cause });
    this.kind = kind;
    this.httpStatus = details.httpStatus;
    this.errorCode = details.errorCode;
    this.errorMessage = details.errorMessage;
  }
}
