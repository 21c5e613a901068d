/**
 * The Results an API owes (docs/daraja-protocol.md §M1.6): each request acknowledged whose Result
 * has not yet reached its ResultURL. The API decides the outcome when it accepts the request and
 * hands it here; this book delivers it when it falls due (`deliverResult`) and forgets it once the
 * delivery has ended. With SIM_STATE the book is kept, so that a Result owed when the simulator
 * stopped is delivered after its restart: late, if its time passed meanwhile, as Daraja would
 * after an outage. One that was on its way when the simulator died is sent again (a receiver may
 * get it twice; it must match Results on their ids anyway, §M1.5).
 */
import { z } from 'zod';
import { CallbackStateSchema, DeliveryFaultSchema, type DeliveryFault } from '../callbacks.ts';
import type { OperationContext } from '../operations/operation.ts';
import { deliverResult } from './deliver.ts';
import type { ResultOutcome } from './result.ts';

const ItemSchema = z.object({
  Key: z.string(),
  Value: z.union([z.string(), z.number()]).optional(),
});

/** A ResultOutcome (result.ts) as SIM_STATE keeps it. */
export const ResultOutcomeSchema = z.object({
  conversation: z.object({ originatorConversationId: z.string(), conversationId: z.string() }),
  resultCode: z.string(),
  resultDesc: z.string(),
  transactionId: z.string().optional(),
  parameters: z.array(ItemSchema).optional(),
  queue: z.string(),
  reference: z.array(ItemSchema).optional(),
});

export const OwedResultSchema = z.object({
  outcome: ResultOutcomeSchema,
  resultUrl: z.string(),
  queueTimeoutUrl: z.string(),
  /** When it falls due: SIM_CALLBACK_DELAY_MS after the request. */
  dueAt: z.iso.datetime(),
  fault: DeliveryFaultSchema,
  /** `waiting`, or `delivering` once it is on its way. */
  state: CallbackStateSchema,
});
export type OwedResult = z.infer<typeof OwedResultSchema>;

/** What an API gives the book: the outcome it decided, where to send it, and how. */
export interface ResultOwed {
  outcome: ResultOutcome;
  resultUrl: string;
  queueTimeoutUrl: string;
  /** A number's chosen delivery fault (PUT /_sim/numbers/:phone/next); none unless given. */
  fault?: DeliveryFault | undefined;
}

/** Those still to be delivered are at most this many: the oldest are forgotten first. */
const MAX_OWED = 1000;

export class OwedResults {
  readonly #context: Pick<OperationContext, 'config' | 'clock' | 'faults' | 'log'>;
  readonly #owed = new Map<string, OwedResult>();
  #generation = 0;
  /** SIM_STATE's hook: called after every change the file must keep. */
  onChange: (() => void) | undefined;
  /** With SIM_STATE: a promise that the file holds every change so far. */
  saved: (() => Promise<void> | undefined) | undefined;

  constructor(context: Pick<OperationContext, 'config' | 'clock' | 'faults' | 'log'>) {
    this.#context = context;
  }

  /** SIM_STATE's `keep` (operations/operation.ts): the hooks, until the function returned is called. */
  keep(changed: () => void, saved: () => Promise<void> | undefined): () => void {
    this.onChange = changed;
    this.saved = saved;
    return () => {
      this.onChange = undefined;
      this.saved = undefined;
    };
  }

  /** Owes a Result from now: it goes SIM_CALLBACK_DELAY_MS later. */
  owe({ outcome, resultUrl, queueTimeoutUrl, fault = {} }: ResultOwed): void {
    const { clock, config } = this.#context;
    const dueAt = new Date(clock.now().getTime() + config.callbackDelayMs).toISOString();
    const owed: OwedResult = {
      outcome,
      resultUrl,
      queueTimeoutUrl,
      dueAt,
      fault,
      state: 'waiting',
    };
    this.#owed.set(outcome.conversation.conversationId, owed);
    for (const id of this.#owed.keys()) {
      if (this.#owed.size <= MAX_OWED) break;
      this.#owed.delete(id);
    }
    this.onChange?.();
    void this.#deliver(owed);
  }

  /** Those owed, oldest first (copies: SIM_STATE writes them later). */
  snapshot(): OwedResult[] {
    return structuredClone([...this.#owed.values()]);
  }

  /** Carries on after a restart: each owed Result is delivered when due, or at once if overdue. */
  restore(saved: OwedResult[]): void {
    this.reset();
    for (const owed of saved) this.#owed.set(owed.outcome.conversation.conversationId, owed);
    for (const owed of saved) void this.#deliver(owed);
  }

  /** Forgets every Result owed; those on their way stop. */
  reset(): void {
    this.#owed.clear();
    this.#generation++;
  }

  async #deliver(owed: OwedResult): Promise<void> {
    const generation = this.#generation;
    const id = owed.outcome.conversation.conversationId;
    const current = () => generation === this.#generation && this.#owed.get(id) === owed;
    const delivered = await deliverResult(
      {
        outcome: owed.outcome,
        resultUrl: owed.resultUrl,
        queueTimeoutUrl: owed.queueTimeoutUrl,
        delayMs: Math.max(0, Date.parse(owed.dueAt) - this.#context.clock.now().getTime()),
        fault: owed.fault,
        current,
        saved: () => this.saved?.(),
        onState: (state) => {
          owed.state = state;
          this.onChange?.();
        },
      },
      this.#context,
    );
    if (delivered.state !== 'stopped' && current()) {
      this.#owed.delete(id);
      this.onChange?.();
    }
  }
}
