/**
 * What database-outage.test.ts records of each request and how it judges the answers: a normal
 * answer, our 503 DATABASE_UNAVAILABLE, or a fault (a 500, another code, no answer at all).
 */
import type { ApiProcess } from './api-process.ts';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When a request was sent: before the outage, while it lasted (each part), after it. */
export type Phase = 'before' | 'cut' | 'down' | 'back' | 'after' | 'hung' | 'woken';

/** One request and what came back, or that nothing did (`error`: a reset, a timeout). */
export interface Answer {
  what: string;
  route: string;
  phase: Phase;
  status: number | null;
  body: unknown;
  retryAfter: string | null;
  error: string | null;
  ms: number;
}

/**
 * Exactly our refusal, `{success: false, code: 'DATABASE_UNAVAILABLE', message}` with a Retry-After
 * in whole seconds, and the `transactionId` our refusals carry when they saved a payment (errors.ts):
 * a push M-PESA took whose acknowledgement could not be recorded.
 */
export function isDatabaseUnavailable(answer: Answer): boolean {
  const body = answer.body as Record<string, unknown> | undefined;
  const keys = Object.keys(body ?? {})
    .sort()
    .join();
  return (
    answer.status === 503 &&
    typeof body === 'object' &&
    body !== null &&
    (keys === 'code,message,success' ||
      (keys === 'code,message,success,transactionId' && typeof body.transactionId === 'string')) &&
    body.success === false &&
    body.code === 'DATABASE_UNAVAILABLE' &&
    typeof body.message === 'string' &&
    body.message.trim() !== '' &&
    /^[0-9]+$/.test(answer.retryAfter ?? '')
  );
}

/**
 * What is wrong with an answer, if anything. With distinct phones, no limits and an in-process
 * M-PESA, nothing but success is normal here (a busy phone, a rate limit or M-PESA not answering
 * would each be a fault of the test's own making, and the first second, before any outage, shows
 * they do not happen): the only other answer allowed is our DATABASE_UNAVAILABLE. Liveness never
 * depends on the database; readiness answers in its own shape.
 */
export function answerFault(answer: Answer): string | undefined {
  const said = `${answer.what} (${answer.phase}, ${answer.ms} ms)`;
  if (answer.status === null) return `${said}: no answer, ${answer.error}`;
  const shown = `${said}: ${answer.status} ${JSON.stringify(answer.body)} Retry-After ${answer.retryAfter}`;
  const body = answer.body as Record<string, unknown> | undefined;
  if (answer.route === '/api/health') return answer.status === 200 ? undefined : shown;
  if (answer.route === '/api/ready') {
    const ready = answer.status === 200 && body?.status === 'ready';
    const notReady =
      answer.status === 503 &&
      body?.status === 'not ready' &&
      typeof body.reason === 'string' &&
      Object.keys(body).length === 2;
    return ready || notReady ? undefined : shown;
  }
  if (answer.status === 200) return undefined;
  return isDatabaseUnavailable(answer) ? undefined : shown;
}

/** The receipt in a success callback's metadata. */
export function callbackReceipt(body: unknown): string | undefined {
  const items = (
    body as { Body?: { stkCallback?: { CallbackMetadata?: { Item?: unknown[] } } } } | undefined
  )?.Body?.stkCallback?.CallbackMetadata?.Item;
  const item = items?.find(
    (each): each is { Name: string; Value: string } =>
      (each as { Name?: unknown }).Name === 'MpesaReceiptNumber',
  );
  return item ? String(item.Value) : undefined;
}

export interface Instance {
  name: 'A' | 'B';
  port: number;
  api: ApiProcess;
}

/** The start of a process's output (a crash's error and its code), without the objects it dumps. */
export function outputHead(api: ApiProcess): string {
  const lines = api.output().split('\n');
  const head = lines.slice(0, 45).join('\n');
  return lines.length > 45 ? `${head}\n… (${lines.length - 45} more lines)` : head;
}

export interface Payment {
  phone: string;
  transactionId: string;
  checkoutRequestId: string;
}

/** A result callback sent, by this test or by the simulator, and whether it was taken (2xx). */
export interface SentCallback {
  checkoutRequestId: string;
  body: object;
  receipt: string | undefined;
  taken: boolean;
}

/** The CheckoutRequestID a result callback is for. */
export function checkoutIdOf(body: object): string {
  return (body as { Body: { stkCallback: { CheckoutRequestID: string } } }).Body.stkCallback
    .CheckoutRequestID;
}
