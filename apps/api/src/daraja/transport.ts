/**
 * How every call to Daraja travels, whichever of its APIs it is for: the OAuth token (cached, one
 * request for it at a time), a timeout on each request, Daraja's error envelope, and one retry
 * when Daraja refuses the token (docs/daraja-protocol.md §2, §3.5). Every failure says whether the
 * request could have reached Daraja (`DarajaError.kind`). The modules of each API (stk-push.ts,
 * stk-query.ts) build their requests and read their answers on top of it.
 */
import { z } from 'zod';
import { stripControlCharacters } from '@mpesa/shared';
import { isStorableIdentifier } from '../lib/stored-lengths.ts';
import { DarajaError } from './daraja-error.ts';
import { nodeHttpSend, type HttpSend } from './http-send.ts';

export interface DarajaTransportOptions {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  timeoutMs: number;
  /** How a request travels (node:http's by default; the tests give their own). */
  send?: HttpSend;
  now?: () => Date;
}

/** An answer that is not Daraja's error envelope: its HTTP status and its body as JSON, if any. */
export interface JsonAnswer {
  status: number;
  body: unknown;
}

export interface DarajaTransport {
  /** A POST with a bearer token; a token Daraja no longer accepts is replaced and the call tried once more. */
  postJson(path: string, payload: object): Promise<JsonAnswer>;
  /** The clock the requests are stamped with. */
  now(): Date;
}

/** Daraja's words are stored and shown: no control characters (PostgreSQL cannot store a NUL). */
export const darajaText = z.string().max(2000).transform(stripControlCharacters);

/** An identifier or code we store: anything longer or stranger is not an answer we can keep. */
export const storable = (max: number) =>
  z
    .union([z.string(), z.number()])
    .transform((value) => String(value).trim())
    .refine((value) => isStorableIdentifier(value, max));

const tokenSchema = z.object({
  access_token: z.string().min(1),
  // A string ("3599") in real answers, a number in the 2025 documentation sample.
  expires_in: z.union([z.string(), z.number()]).transform(Number).pipe(z.number().positive()),
});

const errorEnvelopeSchema = z.looseObject({
  requestId: z.string().optional(),
  errorCode: z.string(),
  errorMessage: darajaText,
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

/** The errorCode Daraja gives for a missing, wrong or expired token (docs/daraja-protocol.md §3.5). */
const INVALID_TOKEN = '404.001.03';

/** A request that failed before any answer: unreachable (never sent) or unknown (may have arrived). */
function sendFailure(error: unknown, timeoutMs: number): DarajaError {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  const reason = typeof code === 'string' ? code : cause?.code;
  if (typeof reason === 'string' && UNREACHABLE_CODES.has(reason)) {
    return new DarajaError('unreachable', `Daraja unreachable (${reason})`, { cause: error });
  }
  const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
  return new DarajaError(
    'unknown',
    timedOut ? `Daraja did not answer within ${timeoutMs} ms` : 'Daraja connection failed',
    { cause: error },
  );
}

/** The body as JSON (undefined when empty or not JSON); Daraja's error envelope is thrown. */
function readAnswer(status: number, text: string): JsonAnswer {
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
        httpStatus: status,
        errorCode: envelope.data.errorCode,
        errorMessage: envelope.data.errorMessage,
      },
    );
  }
  return { status, body };
}

export function createDarajaTransport(options: DarajaTransportOptions): DarajaTransport {
  const send = options.send ?? nodeHttpSend();
  const now = options.now ?? (() => new Date());
  let cached: { token: string; expiresAt: number } | undefined;
  let inFlight: Promise<string> | undefined;

  async function exchange(
    path: string,
    request: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  ): Promise<JsonAnswer> {
    let answer: { status: number; text: string };
    try {
      answer = await send({
        url: `${options.baseUrl}${path}`,
        ...request,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw sendFailure(error, options.timeoutMs);
    }
    return readAnswer(answer.status, answer.text);
  }

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${options.consumerKey}:${options.consumerSecret}`).toString(
      'base64',
    );
    const startedAt = now().getTime();
    const answer = await exchange('/oauth/v1/generate?grant_type=client_credentials', {
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

  async function postJson(path: string, payload: object): Promise<JsonAnswer> {
    for (let attempt = 1; ; attempt++) {
      const token = await accessToken();
      try {
        return await exchange(path, {
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

  return { postJson, now };
}
