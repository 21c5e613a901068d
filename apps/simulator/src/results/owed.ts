/**
 * The Results an API owes (docs/daraja-protocol.md §M1.6): a request acknowledged whose Result is
 * not yet delivered. Daraja never forgets a request it accepted, so with SIM_STATE the book is kept
 * with the rest, and after a restart each Result still owed goes out, late if its time has passed,
 * as Daraja would deliver it after an outage. A Result is forgotten once its delivery has ended
 * (taken, refused to the end, or withheld by a fault): the request log and the journal keep it.
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
const OutcomeSchema = z.object({
  conversation: z.object({ originatorConversationId: z.string(), conversationId: z.string() }),
  resultCode: z.string(),
  resultDesc: z.string(),
  transactionId: z.string().optional(),
  parameters: z.array(ItemSchema).optional(),
  queue: z.string(),
  reference: z.array(ItemSchema).optional(),
}) satisfies z.ZodType<ResultOutcome>;

/** One Result owed: how the request ended, where it goes, and when it was accepted. */
export const OwedResultSchema = z.object({
  outcome: OutcomeSchema,
  resultUrl: z.string(),
  queueTimeoutUrl: z.string(),
  acceptedAt: z.iso.datetime(),
  fault: DeliveryFaultSchema,
  state: CallbackStateSchema,
});
export type OwedResult = z.infer<typeof OwedResultSchema>;

/** What an API asks to owe: the request's Result, and the delivery fault a number chose for it. */
export interface NewOwedResult {
  outcome: ResultOutcome;
  resultUrl: string;
  queueTimeoutUrl: string;
  fault?: DeliveryFault | undefined;
}

type DeliveryContext = Pick<OperationContext, 'config' | 'clock' | 'faults' | 'log'>;

export class OwedResults {
  readonly #context: DeliveryContext;
  readonly #owed = new Map<string, OwedResult>();
  /** Moves on at each reset: a delivery begun before it stops. */
  #generation = 0;
  /** SIM_STATE's hook: called after every change the file must keep. */
  onChange: (() => void) | undefined;
  /** With SIM_STATE: a promise that the file holds every change so far (state.ts). */
  saved: (() => Promise<void> | undefined) | undefined;

  constructor(context: DeliveryContext) {
    this.#context = context;
  }

  /**
   * Owes a Result: it goes SIM_CALLBACK_DELAY_MS after now (deliver.ts). Called before the
   * request is acknowledged, so that the file holds it when the acknowledgement leaves.
   */
  owe(owed: NewOwedResult): void {
    const entry: OwedResult = {
      ...owed,
      fault: owed.fault ?? {},
      acceptedAt: this.#context.clock.now().toISOString(),
      state: 'waiting',
    };
    this.#owed.set(entry.outcome.conversation.conversationId, entry);
    this.onChange?.();
    void this.#deliver(entry);
  }

  /** The Results still owed, oldest first. */
  list(): OwedResult[] {
    return [...this.#owed.values()];
  }

  snapshot(): OwedResult[] {
    return structuredClone(this.list());
  }

  /** Carries on after a restart: each Result still owed is delivered, at once if overdue. */
  restore(saved: OwedResult[]): void {
    this.reset();
    for (const entry of saved) {
      this.#owed.set(entry.outcome.conversation.conversationId, entry);
      void this.#deliver(entry);
    }
  }

  /** Forgets every Result owed; deliveries on their way stop. */
  reset(): void {
    this.#generation++;
    this.#owed.clear();
  }

  async #deliver(entry: OwedResult): Promise<void> {
    const generation = this.#generation;
    const { config, clock } = this.#context;
    const dueMs = Date.parse(entry.acceptedAt) + config.callbackDelayMs;
    await deliverResult(
      {
        outcome: entry.outcome,
        resultUrl: entry.resultUrl,
        queueTimeoutUrl: entry.queueTimeoutUrl,
        delayMs: Math.max(0, dueMs - clock.now().getTime()),
        fault: entry.fault,
        current: () => generation === this.#generation,
        saved: () => this.saved?.(),
        onState: (state) => {
          if (state === 'waiting' || state === 'delivering') entry.state = state;
          else this.#owed.delete(entry.outcome.conversation.conversationId);
          this.onChange?.();
        },
      },
      this.#context,
    );
  }
}
