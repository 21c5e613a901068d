/**
 * The only code that talks to M-PESA: OAuth token, STK push and STK query (PROTOCOL.md §2, §3, §5).
 * Every call has a timeout, and every failure says whether the request could have reached Daraja.
 */
import { z } from 'zod';
import { stripControlCharacters } from '@mpesa/shared';
import { MAX_LENGTH, isStorableIdentifier } from '../db/stored-lengths.ts';
import { DarajaError } from './daraja-error.ts';
import { stkPassword } from './password.ts';
import { darajaTimestamp } from './time.ts';

export interface DarajaClientOptions {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  shortcode: string;
  passkey: string;
  transactionType: 'CustomerPayBillOnline' | 'CustomerBuyGoodsOnline';
  partyB: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  now?: () => Date;
}

export interface StkPushRequest {
  /** 2547XXXXXXXX or 2541XXXXXXXX. */
  phoneNumber: string;
  amount: number;
  /** Max 12 characters, shown on the payer's prompt. */
  accountReference: string;
  /** Max 13 characters. */
  transactionDesc: string;
  callbackUrl: string;
}

export interface StkPushAck {
  merchantRequestId: string;
  checkoutRequestId: string;
  responseCode: string;
  responseDescription: string;
  customerMessage: string;
}

export type StkQueryResult =
  | { state: 'pending'; message: string }
  | { state: 'final'; resultCode: string; resultDesc: string; raw: unknown };

export interface DarajaClient {
  stkPush(request: StkPushRequest): Promise<StkPushAck>;
  stkQuery(checkoutRequestId: string): Promise<StkQueryResult>;
}

const tokenSchema = z.object({
  access_token: z.string().min(1),
  // A string ("3599") in real answers, a number in the 2025 documentation sample.
  expires_in: z.union([z.string(), z.number()]).transform(Number).pipe(z.number().positive()),
});

/** Daraja's words are stored and shown: no control characters (PostgreSQL cannot store a NUL). */
const darajaText = z.string().max(2000).transform(stripControlCharacters);

/** An identifier or code we store: anything longer or stranger is not an answer we can keep. */
const storable = (max: number) =>
  z
    .union([z.string(), z.number()])
    .transform((value) => String(value).trim())
    .refine((value) => isStorableIdentifier(value, max));

const errorEnvelopeSchema = z.looseObject({
  requestId: z.string().optional(),
  errorCode: z.string(),
  errorMessage: darajaText,
});

const ackSchema = z.looseObject({
  MerchantRequestID: storable(MAX_LENGTH.darajaId),
  CheckoutRequestID: storable(MAX_LENGTH.darajaId).pipe(z.string().min(1)),
  ResponseCode: storable(MAX_LENGTH.resultCode),
  ResponseDescription: darajaText.default(''),
  CustomerMessage: darajaText.default(''),
});

const queryAnswerSchema = z.looseObject({
  ResultCode: storable(MAX_LENGTH.resultCode).pipe(z.string().min(1)),
  ResultDesc: darajaText.default(''),
});

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Tokens are renewed this long before Daraja says they expire. */
const TOKEN_MARGIN_MS = 60_000;

/** The errorCode Daraja gives for a missing, wrong or expired token (PROTOCOL.md §3.5). */
const INVALID_TOKEN = '404.001.03';
/** "The transaction is being processed": an STK query before the payer has answered. */
const STILL_PROCESSING = '500.001.1001';

interface JsonAnswer {
  status: number;
  body: unknown;
}

export function createDarajaClient(options: DarajaClientOptions): DarajaClient {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  let cached: { token: string; expiresAt: number } | undefined;
  let inFlight: Promise<string> | undefined;

  async function send(path: string, init: RequestInit): Promise<JsonAnswer> {
    let response: Response;
    let text: string;
    try {
      response = await doFetch(`${options.baseUrl}${path}`, {
        ...init,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (code && UNREACHABLE_CODES.has(code)) {
        throw new DarajaError('unreachable', `Daraja unreachable (${code})`, { cause: error });
      }
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new DarajaError(
        'unknown',
        timedOut
          ? `Daraja did not answer within ${options.timeoutMs} ms`
          : 'Daraja connection failed',
        { cause: error },
      );
    }
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const envelope = errorEnvelopeSchema.safeParse(body);
    if (envelope.success) {
      throw new DarajaError(
        'rejected',
        `Daraja ${envelope.data.errorCode}: ${envelope.data.errorMessage}`,
        {
          httpStatus: response.status,
          errorCode: envelope.data.errorCode,
          errorMessage: envelope.data.errorMessage,
        },
      );
    }
    return { status: response.status, body };
  }

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${options.consumerKey}:${options.consumerSecret}`).toString(
      'base64',
    );
    const startedAt = now().getTime();
    const answer = await send('/oauth/v1/generate?grant_type=client_credentials', {
      method: 'GET',
      headers: { Authorization: `Basic ${basic}` },
    });
    const token = tokenSchema.safeParse(answer.body);
    if (answer.status !== 200 || !token.success) {
      throw new DarajaError('unknown', `Daraja OAuth gave HTTP ${answer.status} without a token`, {
        httpStatus: answer.status,
      });
    }
    const lifetimeMs = token.data.expires_in * 1000;
    cached = {
      token: token.data.access_token,
      expiresAt: startedAt + lifetimeMs - Math.min(TOKEN_MARGIN_MS, lifetimeMs / 10),
    };
    return cached.token;
  }

  async function accessToken(): Promise<string> {
    if (cached && now().getTime() < cached.expiresAt) return cached.token;
    // One request for a token at a time, however many payments are waiting for it.
    inFlight ??= fetchToken().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  /** A POST with a bearer token; a token Daraja no longer accepts is replaced and the call tried once more. */
  async function postJson(path: string, payload: object): Promise<JsonAnswer> {
    for (let attempt = 1; ; attempt++) {
      const token = await accessToken();
      try {
        return await send(path, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(payload),
        });
      } catch (error) {
        if (attempt === 1 && error instanceof DarajaError && error.errorCode === INVALID_TOKEN) {
          if (cached?.token === token) cached = undefined;
          continue;
        }
        throw error;
      }
    }
  }

  function credentials() {
    const timestamp = darajaTimestamp(now());
    return {
      BusinessShortCode: options.shortcode,
      Password: stkPassword(options.shortcode, options.passkey, timestamp),
      Timestamp: timestamp,
    };
  }

  return {
    async stkPush(request) {
      const answer = await postJson('/mpesa/stkpush/v1/processrequest', {
        ...credentials(),
        TransactionType: options.transactionType,
        Amount: request.amount,
        PartyA: request.phoneNumber,
        PartyB: options.partyB,
        PhoneNumber: request.phoneNumber,
        CallBackURL: request.callbackUrl,
        AccountReference: request.accountReference,
        TransactionDesc: request.transactionDesc,
      });
      const ack = ackSchema.safeParse(answer.body);
      if (answer.status !== 200 || !ack.success) {
        // The request reached Daraja but the answer is not one we understand: the payer may still
        // get a prompt, so the outcome is unknown, not failed.
        throw new DarajaError(
          'unknown',
          `Daraja STK push gave HTTP ${answer.status} without an acknowledgement`,
          {
            httpStatus: answer.status,
          },
        );
      }
      if (ack.data.ResponseCode !== '0') {
        throw new DarajaError(
          'rejected',
          `Daraja STK push refused: ${ack.data.ResponseDescription}`,
          {
            httpStatus: answer.status,
            errorCode: ack.data.ResponseCode,
            errorMessage: ack.data.ResponseDescription,
          },
        );
      }
      return {
        merchantRequestId: ack.data.MerchantRequestID,
        checkoutRequestId: ack.data.CheckoutRequestID,
        responseCode: ack.data.ResponseCode,
        responseDescription: ack.data.ResponseDescription,
        customerMessage: ack.data.CustomerMessage,
      };
    },

    async stkQuery(checkoutRequestId) {
      let answer: JsonAnswer;
      try {
        answer = await postJson('/mpesa/stkpushquery/v1/query', {
          ...credentials(),
          CheckoutRequestID: checkoutRequestId,
        });
      } catch (error) {
        if (
          error instanceof DarajaError &&
          error.errorCode === STILL_PROCESSING &&
          /being processed/i.test(error.errorMessage ?? '')
        ) {
          return { state: 'pending', message: error.errorMessage ?? '' };
        }
        throw error;
      }
      const result = queryAnswerSchema.safeParse(answer.body);
      if (answer.status !== 200 || !result.success) {
        throw new DarajaError(
          'unknown',
          `Daraja STK query gave HTTP ${answer.status} without a result`,
          {
            httpStatus: answer.status,
          },
        );
      }
      return {
        state: 'final',
        resultCode: result.data.ResultCode,
        resultDesc: result.data.ResultDesc,
        raw: answer.body,
      };
    },
  };
}
