/**
 * Fault rules (PUT /_sim/faults): a rate of Daraja's errors and of added latency, to soak a client
 * under what the real Daraja does on a bad day. Each rule names an operation (`oauth`; each Daraja
 * API's requests, as its folder in operations/ names them: `stkpush` and `query` today; and
 * `callback`: fault-rules.ts lists them), the probability that it applies to a request (or a
 * callback), and an error, an added latency, or both:
 * - for `oauth` and each API's requests: one of Daraja's refusals that `/_sim/numbers/:phone/next`
 *   knows (`busy`, `spike-arrest`, `quota`, `internal-error`), `drop` (the connection is closed with
 *   no answer, the request never taken), `lose-answer` (the request is carried out, and the
 *   connection closed before its answer leaves: a client cannot tell it from `drop`) or `gateway`
 *   (a 5xx page that is not Daraja's JSON envelope, as a proxy in front of it sends);
 * - for `callback`: `drop` (never delivered), `duplicate` (delivered twice) or `late` (delivered
 *   LATE_CALLBACK_MS later than it would be, unless the rule's latency says how late).
 * A seed makes the draws repeatable: the same seed and the same traffic give the same faults.
 */
import { z } from 'zod';
import { REFUSALS, type RefusalName } from './catalogue.ts';

/** What is said back of a value given: enough to recognise it, not a megabyte of it. */
const shortened = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

const REQUEST_ERRORS = [...Object.keys(REFUSALS), 'drop', 'lose-answer', 'gateway'] as const;
const CALLBACK_ERRORS = ['drop', 'duplicate', 'late'] as const;

/** How much later a `late` callback comes when its rule gives no latency: past most clients' patience. */
export const LATE_CALLBACK_MS = 120_000;
const MAX_LATENCY_MS = 600_000;

const LATENCY_BOUND = `must be a whole number of milliseconds from 0 to ${MAX_LATENCY_MS}`;
const milliseconds = z
  .number({ error: LATENCY_BOUND })
  .int(LATENCY_BOUND)
  .min(0, LATENCY_BOUND)
  .max(MAX_LATENCY_MS, LATENCY_BOUND);

const latency = z
  .tuple([milliseconds, milliseconds], { error: 'must be [lowest, highest] in milliseconds' })
  .refine(([low, high]) => low <= high, {
    message: 'must be [lowest, highest] with lowest ≤ highest',
  });

/** A fault rule for one of `targets`, the names fault-rules.ts gathers. */
const ruleFor = (targets: readonly [string, ...string[]]) =>
  z
    .object({
      operation: z.enum(targets, {
        error: `must be one of ${targets.join(', ')}`,
      }),
      probability: z
        .number({ error: 'must be a number from 0 to 1' })
        .gt(0, 'must be more than 0 (a rule that never applies is no rule)')
        .max(1, 'must be at most 1'),
      error: z.string().optional(),
      latencyMs: latency.optional(),
    })
    .strict()
    .superRefine((value, ctx) => {
      if (value.error === undefined && value.latencyMs === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'a rule needs an error, a latencyMs, or both',
          path: ['error'],
        });
        return;
      }
      if (value.error === undefined) return;
      const allowed: readonly string[] =
        value.operation === 'callback' ? CALLBACK_ERRORS : REQUEST_ERRORS;
      if (!allowed.includes(value.error)) {
        ctx.addIssue({
          code: 'custom',
          message: `${JSON.stringify(shortened(value.error))} is not an error for ${value.operation} (one of ${allowed.join(', ')})`,
          path: ['error'],
        });
      }
    });

const SEED_RANGE = `must be a whole number from 0 to ${2 ** 32 - 1}`;

/** PUT /_sim/faults's body, and what SIM_STATE keeps of the rules: rules for `targets`. */
export const faultRulesSchema = (targets: readonly [string, ...string[]]) =>
  z
    .object({
      seed: z
        .number({ error: SEED_RANGE })
        .int(SEED_RANGE)
        .min(0, SEED_RANGE)
        .max(2 ** 32 - 1, SEED_RANGE)
        .optional(),
      rules: z.array(ruleFor(targets)).max(100, 'at most 100 rules'),
    })
    .strict();

export type FaultRules = z.infer<ReturnType<typeof faultRulesSchema>>;
export type FaultRule = FaultRules['rules'][number];

/** What the rules decided for one request or callback. */
export interface FaultDecision {
  error: string | null;
  latencyMs: number;
}

/** mulberry32: small, fast, and the same numbers for the same seed everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export class FaultPlan {
  #rules: FaultRule[] = [];
  #seed = 0;
  #next: () => number = random(0);

  /** Replaces the rules; with no seed, one is chosen (and shown by `list`, to repeat the run). */
  set({ seed, rules }: FaultRules): void {
    this.#seed = seed ?? Math.floor(Math.random() * 2 ** 32);
    this.#next = random(this.#seed);
    this.#rules = rules;
    this.onChange?.();
  }

  list(): { seed: number; rules: FaultRule[] } {
    return { seed: this.#seed, rules: this.#rules };
  }

  clear(): void {
    this.#rules = [];
    this.onChange?.();
  }

  /**
   * Called when the rules are set or cleared (SIM_STATE keeps them, with their seed; the draws,
   * after a restart, start again from the seed).
   */
  onChange: (() => void) | undefined;

  /**
   * Draws, for each rule of the operation in order, whether it applies: the first error that
   * applies is the one, and the latencies of all that apply add up (a `late` rule with no latency
   * counts as LATE_CALLBACK_MS of it).
   */
  decide(operation: string): FaultDecision {
    let error: string | null = null;
    let latencyMs = 0;
    for (const current of this.#rules) {
      if (current.operation !== operation) continue;
      if (this.#next() >= current.probability) continue;
      if (current.latencyMs) {
        const [low, high] = current.latencyMs;
        latencyMs += low + Math.floor(this.#next() * (high - low + 1));
      } else if (current.error === 'late') {
        latencyMs += LATE_CALLBACK_MS;
      }
      if (current.error !== undefined && error === null) error = current.error;
    }
    return { error, latencyMs };
  }
}

/** Whether a rule's error is one of Daraja's refusals (as against `drop`, `lose-answer` or `gateway`). */
export function isRefusal(error: string): error is RefusalName {
  return Object.hasOwn(REFUSALS, error);
}
