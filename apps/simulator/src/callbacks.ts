/**
 * Delivers result callbacks the way Daraja does (PROTOCOL.md §4): one POST of JSON to CallBackURL,
 * no retry unless a fault or SIM_CALLBACK_RETRIES asks for it, and every attempt recorded with the receiver's answer.
 */
import { eatNumber } from './ids.ts';
import type { Prompt } from './prompts.ts';
import { redactUrl } from './redact.ts';

export interface DeliveryFault {
  /** Extra identical deliveries after the first (Daraja has been seen to deliver twice). */
  duplicates?: number;
  /** Extra wait before the first delivery. */
  delayMs?: number;
  /** Never deliver: only an STK query can tell what happened. */
  drop?: boolean;
  /**
   * Try again on a non-2xx answer or a network error (SIM_CALLBACK_RETRIES unless given: none by
   * default, like Safaricom as far as anyone knows).
   */
  retries?: number;
  /** The wait before the first retry (SIM_CALLBACK_RETRY_BACKOFF_MS unless given), doubled each time. */
  retryIntervalMs?: number;
}

export interface CallbackAttempt {
  checkoutRequestId: string;
  url: string;
  attempt: number;
  requestBody: unknown;
  status: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
}

/** The callback body exactly as §4.1 shows it: metadata on success only, Balance with no Value. */
export function callbackBody(prompt: Prompt): unknown {
  const stkCallback: Record<string, unknown> = {
    MerchantRequestID: prompt.merchantRequestId,
    CheckoutRequestID: prompt.checkoutRequestId,
    ResultCode: /^\d+$/.test(prompt.resultCode ?? '')
      ? Number(prompt.resultCode)
      : prompt.resultCode,
    ResultDesc: prompt.resultDesc,
  };
  if (prompt.resultCode === '0') {
    stkCallback.CallbackMetadata = {
      Item: [
        { Name: 'Amount', Value: prompt.amount },
        { Name: 'MpesaReceiptNumber', Value: prompt.receiptNumber },
        { Name: 'Balance' },
        { Name: 'TransactionDate', Value: eatNumber(new Date(prompt.completedAt ?? Date.now())) },
        { Name: 'PhoneNumber', Value: Number(prompt.phoneNumber) },
      ],
    };
  }
  return { Body: { stkCallback } };
}

const MAX_LOGGED_RESPONSE = 4096;

/** What a receiver did with one callback POST: its status and answer, or why there was none. */
export interface Sent {
  status: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
}

/** A receiver took the callback: any 2xx. */
export const accepted = (sent: { status: number | null }) =>
  sent.status !== null && sent.status >= 200 && sent.status < 300;

/**
 * POSTs a callback body as Daraja does (JSON, no redirects followed), waiting at most `timeoutMs`
 * for the answer. Delivery (postCallback) and `daraja-simulator replay` both send through it.
 */
export async function sendCallback(url: string, body: unknown, timeoutMs: number): Promise<Sent> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'Daraja-Simulator/1.0' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    const text = await response.text();
    return {
      status: response.status,
      responseBody: text.slice(0, MAX_LOGGED_RESPONSE),
      error: null,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const message =
      error instanceof DOMException && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    return {
      status: null,
      responseBody: null,
      // Node's words may quote the URL (one with a password in it cannot be fetched): the error
      // is shown and journaled, so it is masked as the URL is everywhere else.
      error: message.replaceAll(url, redactUrl(url)),
      durationMs: Math.round(performance.now() - started),
    };
  }
}

export async function postCallback(
  prompt: Prompt,
  attempt: number,
  timeoutMs: number,
): Promise<CallbackAttempt> {
  const body = callbackBody(prompt);
  return {
    checkoutRequestId: prompt.checkoutRequestId,
    url: prompt.callbackUrl,
    attempt,
    requestBody: body,
    ...(await sendCallback(prompt.callbackUrl, body, timeoutMs)),
  };
}
