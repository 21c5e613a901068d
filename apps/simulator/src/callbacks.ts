/**
 * Delivers callbacks the way Daraja does (docs/daraja-protocol.md §4.3, §M1.5): one POST of JSON
 * to the merchant's URL, no retry unless a fault or SIM_CALLBACK_RETRIES asks for it, and every
 * attempt recorded with the receiver's answer. Shared by every Daraja API the simulator speaks and
 * by every POST it makes to a merchant: STK's callback, the Results of the asynchronous APIs
 * (results/), C2B's validation and confirmation. Each makes its own body and hands it to
 * `deliverCallback`, which hands back what the receiver said.
 */
import { z } from 'zod';
import type { SimClock } from './clock.ts';
import type { SimulatorConfig } from './config.ts';
import type { FaultDecision, FaultPlan } from './faults.ts';
import { redactUrl } from './redact.ts';

const MAX_FAULT_COUNT = 10;
const MAX_FAULT_MS = 600_000;
const count = z.number().int().min(0).max(MAX_FAULT_COUNT);
const milliseconds = z.number().int().min(0).max(MAX_FAULT_MS);

/**
 * How one callback is to be delivered, as `PUT /_sim/numbers/:phone/next` asks it (and SIM_STATE
 * keeps it, with each prompt and each number's next outcome).
 */
export const DeliveryFaultSchema = z
  .object({
    /** Extra identical deliveries after the first (Daraja has been seen to deliver twice). */
    duplicates: count.optional(),
    /** Extra wait before the first delivery. */
    delayMs: milliseconds.optional(),
    /** Never deliver: only a query can tell what happened. */
    drop: z.boolean().optional(),
    /**
     * Try again on a non-2xx answer or a network error (SIM_CALLBACK_RETRIES unless given: none by
     * default, like Safaricom as far as anyone knows).
     */
    retries: count.optional(),
    /** The wait before the first retry (SIM_CALLBACK_RETRY_BACKOFF_MS unless given), doubled each time. */
    retryIntervalMs: milliseconds.optional(),
  })
  .strict();
export type DeliveryFault = z.infer<typeof DeliveryFaultSchema>;

/** Where a result's callback is: not sent yet, on its way, taken, refused to the end, or withheld. */
export const CallbackStateSchema = z.enum([
  'waiting',
  'delivering',
  'delivered',
  'failed',
  'withheld',
]);
export type CallbackState = z.infer<typeof CallbackStateSchema>;

/**
 * The identifiers that name a callback in the request log and the journal (and in `replay`'s
 * lines), under these names in the journal's lines: STK's CheckoutRequestID; a Result's
 * ConversationID and OriginatorConversationID (docs/daraja-protocol.md §M1.3), which a merchant
 * matches it on; C2B's TransID, with which of its two notifications it is (§M3.3). A journal
 * written before Results existed holds STK's alone, and still replays.
 */
export type CallbackIds =
  | { checkoutRequestId: string }
  | { conversationId: string; originatorConversationId: string }
  | { transId: string; notification: 'validation' | 'confirmation' };

/** What a receiver did with one callback POST: its status and answer, or why there was none. */
export interface Sent {
  status: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
}

/** One POST of a callback, as the request log and the journal record it. */
export type CallbackAttempt = CallbackIds & {
  url: string;
  attempt: number;
  requestBody: unknown;
} & Sent;

/**
 * How a delivery ended, and what the receiver said: the answer to the attempt that settled it (the
 * one taken, else the last tried), null when nothing was sent. C2B's validation reads the merchant's
 * verdict in it (docs/daraja-protocol.md §M3.4). `stopped`: the simulator was reset meanwhile.
 */
export interface Delivered {
  state: 'delivered' | 'failed' | 'withheld' | 'stopped';
  answer: Sent | null;
}

const MAX_LOGGED_RESPONSE = 4096;

/** A receiver took the callback: any 2xx. */
export const accepted = (sent: { status: number | null }) =>
  sent.status !== null && sent.status >= 200 && sent.status < 300;

/**
 * POSTs a callback body as Daraja does (JSON, no redirects followed), waiting at most `timeoutMs`
 * for the answer. Delivery (deliverCallback) and `daraja-simulator replay` both send through it.
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

/**
 * A number's own delivery fault (PUT /_sim/numbers/:phone/next) with what the rules drew for the
 * same callback: both apply. Either's `drop` drops it; the delays add up (a `late` rule's
 * included); a `duplicate` rule sends one copy more than the number asked for. Retries are the
 * number's (or the setting's) alone.
 */
export function callbackFault(own: DeliveryFault, drawn: FaultDecision): DeliveryFault {
  const fault: DeliveryFault = { ...own };
  if (drawn.error === 'drop') fault.drop = true;
  if (drawn.error === 'duplicate') fault.duplicates = (own.duplicates ?? 0) + 1;
  if (drawn.latencyMs > 0) fault.delayMs = (own.delayMs ?? 0) + drawn.latencyMs;
  return fault;
}

/** One callback to deliver, and what its operation wants to hear of it. */
export interface Delivery {
  ids: CallbackIds;
  url: string;
  body: unknown;
  /** The callback's own fault (a number's); the `callback` fault rules are drawn on top. */
  fault: DeliveryFault;
  /** False once the simulator was reset after the delivery began: it stops there. */
  current: () => boolean;
  /** How long to wait for each answer: SIM_CALLBACK_TIMEOUT_MS unless given (C2B's validation). */
  timeoutMs?: number | undefined;
  /** With SIM_STATE: a promise that the file holds every change so far (state.ts). */
  saved?: (() => Promise<void> | undefined) | undefined;
  onState?: ((state: CallbackState) => void) | undefined;
  onAttempt?: ((attempt: CallbackAttempt & { at: string }) => void) | undefined;
}

type DeliverySettings = Pick<
  SimulatorConfig,
  'callbackRetries' | 'callbackRetryBackoffMs' | 'callbackTimeoutMs'
>;

/** What a delivery uses of the simulator's. */
export interface DeliveryContext {
  config: DeliverySettings;
  clock: SimClock;
  faults: FaultPlan;
}

/**
 * Delivers one callback: the faults that apply (the callback's own and the `callback` fault
 * rules, faults.ts), a delay on the simulator's clock (POST /_sim/clock/advance brings it
 * forward), the retries and the duplicates, each attempt reported as it ends (`onAttempt` adds
 * it to the request log, hence to the event stream and the journal). Resolves, once the last copy
 * is sent, to how it ended and the answer that settled it.
 */
export async function deliverCallback(
  delivery: Delivery,
  { config, clock, faults }: DeliveryContext,
): Promise<Delivered> {
  const { ids, url, body, current } = delivery;
  const fault = callbackFault(delivery.fault, faults.decide('callback'));
  if (fault.drop) {
    delivery.onState?.('withheld');
    return { state: 'withheld', answer: null };
  }
  if (fault.delayMs) await clock.sleep(fault.delayMs);
  if (!current()) return { state: 'stopped', answer: null };
  delivery.onState?.('delivering');
  // A callback tells how the payment ended: with SIM_STATE, not before the file says so too, or
  // a simulator killed meanwhile would end it again after its restart, perhaps otherwise (a
  // timeout after a callback that said paid). A write that failed has been logged: the callback
  // goes all the same, as one withheld would leave the payment with no end until a restart.
  const saving = delivery.saved?.();
  if (saving) await saving.catch(() => {});
  const post = async (attempt: number) => {
    const sent = await sendCallback(url, body, delivery.timeoutMs ?? config.callbackTimeoutMs);
    delivery.onAttempt?.({
      ...ids,
      url,
      attempt,
      requestBody: body,
      ...sent,
      at: clock.now().toISOString(),
    });
    return sent;
  };
  // The callback's fault, else the setting (SIM_CALLBACK_RETRIES); each wait twice the one before.
  const attempts = 1 + (fault.retries ?? config.callbackRetries);
  const firstWaitMs = fault.retryIntervalMs ?? config.callbackRetryBackoffMs;
  let answer: Sent | null = null;
  for (let attempt = 1; attempt <= attempts && current(); attempt++) {
    answer = await post(attempt);
    if (accepted(answer)) break;
    if (attempt < attempts) await clock.sleep(firstWaitMs * 2 ** (attempt - 1));
  }
  for (let copy = 0; copy < (fault.duplicates ?? 0) && current(); copy++) await post(1);
  if (!current()) return { state: 'stopped', answer };
  const state = answer !== null && accepted(answer) ? 'delivered' : 'failed';
  delivery.onState?.(state);
  return { state, answer };
}
