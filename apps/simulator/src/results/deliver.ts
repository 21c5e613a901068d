/**
 * A Result on its way to the merchant (docs/daraja-protocol.md §M1.5, §M1.6): after its API's
 * delay on the simulator's clock, one POST to the ResultURL with no retries (Daraja's docs: none),
 * through `deliverCallback` (callbacks.ts), so that the `callback` fault rules drop, duplicate or
 * delay it, SIM_CALLBACK_RETRIES applies as to any callback, and each attempt goes to the request
 * log, hence to the event stream and the journal, which `daraja-simulator replay` resends.
 */
import {
  deliverCallback,
  type CallbackAttempt,
  type CallbackState,
  type Delivered,
  type DeliveryFault,
} from '../callbacks.ts';
import type { OperationContext } from '../operations/operation.ts';
import { buildNotice, buildResult, type ResultEnvelope, type ResultOutcome } from './result.ts';

export interface ResultDelivery {
  outcome: ResultOutcome;
  /** The request's ResultURL and QueueTimeOutURL, as the client sent them. */
  resultUrl: string;
  queueTimeoutUrl: string;
  /** The wait before the Result goes: SIM_CALLBACK_DELAY_MS unless given (0: at once). */
  delayMs?: number | undefined;
  /** The Result's own fault (a number's next outcome); the `callback` fault rules add to it. */
  fault?: DeliveryFault | undefined;
  /** False once the operation was reset: the delivery stops there. Always true unless given. */
  current?: (() => boolean) | undefined;
  /** With SIM_STATE: a promise that the file holds every change so far (state.ts). */
  saved?: (() => Promise<void> | undefined) | undefined;
  /** The Result's delivery state as it changes (not the notice's). */
  onState?: ((state: CallbackState) => void) | undefined;
}

/** How the Result's delivery ended, with what was sent; the notice's, when one went first. */
export interface ResultDelivered extends Delivered {
  /** The Result as sent, or as it would have been (dropped): null when stopped before it was made. */
  body: ResultEnvelope | null;
  notice: Delivered | null;
}

/**
 * Delivers a Result: SIM_CALLBACK_DELAY_MS (or `delayMs`) after the call, it is built (dated then)
 * and POSTed once. With SIM_QUEUE_TIMEOUT_NOTICE_MS, a notice goes to QueueTimeOutURL at that
 * moment instead, and the Result that long after it (§M1.4): a receiver must take the notice for
 * "not known yet". Both carry the request's ConversationID and OriginatorConversationID in the
 * log and the journal.
 */
export async function deliverResult(
  delivery: ResultDelivery,
  context: Pick<OperationContext, 'config' | 'clock' | 'faults' | 'log'>,
): Promise<ResultDelivered> {
  const { config, clock, log } = context;
  const { outcome } = delivery;
  const current = delivery.current ?? (() => true);
  const ids = {
    conversationId: outcome.conversation.conversationId,
    originatorConversationId: outcome.conversation.originatorConversationId,
  };
  const stopped = { state: 'stopped', answer: null, body: null } as const;
  // Each attempt in the request log, which feeds the event stream and the journal.
  const onAttempt = (attempt: CallbackAttempt & { at: string }) =>
    log.add({ kind: 'callback', ...attempt });
  await clock.sleep(delivery.delayMs ?? config.callbackDelayMs);
  if (!current()) return { ...stopped, notice: null };
  let notice: Delivered | null = null;
  if (config.queueTimeoutNoticeMs > 0) {
    notice = await deliverCallback(
      {
        ids,
        url: delivery.queueTimeoutUrl,
        body: buildNotice(outcome, config, clock.now()),
        fault: {},
        current,
        onAttempt,
      },
      context,
    );
    await clock.sleep(config.queueTimeoutNoticeMs);
    if (!current()) return { ...stopped, notice };
  }
  const body = buildResult(outcome, config, clock.now());
  const delivered = await deliverCallback(
    {
      ids,
      url: delivery.resultUrl,
      body,
      fault: delivery.fault ?? {},
      current,
      saved: delivery.saved,
      onState: delivery.onState,
      onAttempt,
    },
    context,
  );
  return { ...delivered, body, notice };
}
