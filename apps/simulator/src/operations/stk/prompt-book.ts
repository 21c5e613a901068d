/**
 * The simulated payers' phones: open STK prompts, how each ends, and the callbacks that follow.
 * All state is in memory; `reset()` clears it.
 */
import { EventEmitter } from 'node:events';
import { deliverCallback, type CallbackAttempt, type DeliveryFault } from '../../callbacks.ts';
import { FORCED_NUMBERS, RESULT_CODES } from '../../catalogue.ts';
import { SimClock, type ClockTimer } from '../../clock.ts';
import type { SimulatorConfig } from '../../config.ts';
import { FaultPlan } from '../../faults.ts';
import { checkoutRequestId, merchantRequestId, mpesaReceiptNumber } from '../../ids.ts';
import { callbackBody } from './callback-body.ts';
import type { Payment } from './payment.ts';
import {
  UNANSWERED,
  type NewPrompt,
  type NextOutcome,
  type Prompt,
  type PromptPlan,
  type StkKept,
} from './prompt.ts';

export type SimEvent =
  | { type: 'prompt'; prompt: Prompt }
  | { type: 'callback'; attempt: CallbackAttempt & { at: string } }
  | { type: 'next'; phoneNumber: string }
  | { type: 'reset' };

const MAX_PROMPTS = 1000;
const REPEAT_WINDOW_MS = 2 * 60_000;

export class PromptBook extends EventEmitter<{ change: [SimEvent] }> {
  readonly #config: SimulatorConfig;
  readonly #prompts = new Map<string, Prompt>();
  readonly #timers = new Map<string, ClockTimer[]>();
  readonly #next = new Map<string, NextOutcome>();
  readonly #watchers = new Map<string, number>();
  /** Auto-approvals that came due while someone was looking at the prompt. */
  readonly #autoDue = new Set<string>();
  #generation = 0;
  readonly #clock: SimClock;
  readonly #faults: FaultPlan;

  constructor(config: SimulatorConfig, clock = new SimClock(), faults = new FaultPlan()) {
    super();
    this.#config = config;
    this.#clock = clock;
    this.#faults = faults;
  }

  list(filter: { phoneNumber?: string } = {}): Prompt[] {
    const all = [...this.#prompts.values()].reverse();
    return filter.phoneNumber ? all.filter((p) => p.phoneNumber === filter.phoneNumber) : all;
  }

  get(id: string): Prompt | undefined {
    return this.#prompts.get(id);
  }

  openPromptFor(phoneNumber: string): Prompt | undefined {
    for (const prompt of this.#prompts.values()) {
      if (prompt.phoneNumber === phoneNumber && prompt.state === 'open') return prompt;
    }
    return undefined;
  }

  /** The outcome the number forces, if any: a control-API choice first, then the numbers table. */
  peekForced(phoneNumber: string): NextOutcome['outcome'] | undefined {
    return this.#next.get(phoneNumber)?.outcome ?? FORCED_NUMBERS[phoneNumber];
  }

  setNext(phoneNumber: string, next: NextOutcome): void {
    this.#next.set(phoneNumber, next);
    this.#emit({ type: 'next', phoneNumber });
  }

  clearNext(phoneNumber: string): void {
    if (this.#next.delete(phoneNumber)) this.#emit({ type: 'next', phoneNumber });
  }

  create(request: NewPrompt, now = this.#clock.now()): Prompt {
    const choice = this.#next.get(request.phoneNumber);
    this.#next.delete(request.phoneNumber);
    const outcome = choice?.outcome ?? FORCED_NUMBERS[request.phoneNumber] ?? { kind: 'auto' };
    const fault: DeliveryFault = { ...choice?.fault };
    if (outcome.kind === 'paid-no-callback') fault.drop = true;
    const plan: PromptPlan =
      outcome.kind === 'auto' ? 'auto' : outcome.kind === 'manual' ? 'manual' : 'forced';

    const prompt: Prompt = {
      ...request,
      checkoutRequestId: checkoutRequestId(now, request.phoneNumber),
      merchantRequestId: merchantRequestId(),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.#config.promptTimeoutS * 1000).toISOString(),
      plan,
      forcedResult:
        outcome.kind === 'result'
          ? outcome.resultCode
          : outcome.kind === 'paid-no-callback'
            ? '0'
            : null,
      ...UNANSWERED,
      fault,
    };
    this.#prompts.set(prompt.checkoutRequestId, prompt);
    this.#evict();
    this.#schedule(prompt);
    this.#emit({ type: 'prompt', prompt });
    return prompt;
  }

  /**
   * An open prompt's timers, from the times it holds: its timeout at `expiresAt`, a forced result
   * SIM_CALLBACK_DELAY_MS after it was sent, an auto-approval SIM_AUTO_APPROVE_S after. One whose
   * time has passed (a prompt restored after a restart) runs at once.
   */
  #schedule(prompt: Prompt): void {
    const id = prompt.checkoutRequestId;
    const clock = this.#clock;
    const sent = Date.parse(prompt.createdAt);
    const due: [number, () => void][] = [
      [Date.parse(prompt.expiresAt), () => this.complete(id, '1037', 'timeout')],
    ];
    const forced = prompt.forcedResult;
    if (prompt.plan === 'forced' && forced !== null) {
      due.push([sent + this.#config.callbackDelayMs, () => this.complete(id, forced, 'forced')]);
    } else if (prompt.plan === 'auto' && this.#config.autoApproveS > 0) {
      due.push([sent + this.#config.autoApproveS * 1000, () => this.#autoApprove(id)]);
    }
    // Set in the order they fall due: when a restart finds several overdue, all run at once, and
    // the one that fell due first must win (a forced result, not the timeout that came later).
    due.sort(([a], [b]) => a - b);
    this.#timers.set(
      id,
      due.map(([dueMs, run]) => clock.setTimeoutAt(run, dueMs)),
    );
  }

  /** What a restart needs to carry on (SIM_STATE): every prompt, and the numbers' next outcomes. */
  snapshot(): StkKept {
    return { prompts: [...this.#prompts.values()], next: [...this.#next] };
  }

  /**
   * Carries on from a snapshot: open prompts wait out what is left of their time (or end at once,
   * if it ran out while the simulator was down), and callbacks not yet delivered are delivered,
   * late, as Daraja would after an outage.
   */
  restore(state: StkKept): void {
    this.reset();
    for (const [phoneNumber, next] of state.next) this.#next.set(phoneNumber, next);
    for (const prompt of state.prompts) this.#prompts.set(prompt.checkoutRequestId, prompt);
    for (const prompt of state.prompts) {
      if (prompt.state === 'open') this.#schedule(prompt);
      else if (prompt.callback === 'waiting' || prompt.callback === 'delivering') {
        void this.#deliver(prompt);
      }
    }
  }

  /** The payer typed a PIN: the right one pays, any other gives 2001. */
  enterPin(id: string, pin: string): Prompt | undefined {
    return pin === this.#config.pin
      ? this.complete(id, '0', 'pin')
      : this.complete(id, '2001', 'wrong pin');
  }

  /**
   * Ends an open prompt with a result code and sends the callback. Returns undefined when the prompt
   * does not exist or has already ended (a prompt ends once).
   */
  complete(
    id: string,
    resultCode: string,
    by: string,
    now = this.#clock.now(),
  ): Prompt | undefined {
    const prompt = this.#prompts.get(id);
    if (!prompt || prompt.state !== 'open') return undefined;
    // A success may yet be a repeat (17), or a payment the payer's wallet cannot make (payment.ts).
    let code = resultCode === '0' && this.#isRepeat(prompt, now) ? '17' : resultCode;
    const paid = code === '0' ? this.pay?.(prompt) : undefined;
    code = paid?.resultCode ?? code;
    this.#clearTimers(id);
    this.#autoDue.delete(id);
    prompt.state = 'completed';
    prompt.resultCode = code;
    prompt.resultDesc = Object.hasOwn(RESULT_CODES, code)
      ? RESULT_CODES[code]!
      : 'The request could not be processed.';
    prompt.completedAt = now.toISOString();
    prompt.completedBy = by;
    if (code === '0') prompt.receiptNumber = paid?.receipt ?? mpesaReceiptNumber(now);
    this.#emit({ type: 'prompt', prompt });
    void this.#deliver(prompt);
    return prompt;
  }

  /**
   * With SIM_STATE: a promise that the file holds every change made so far, or undefined if it
   * already does. Unset, nothing is kept.
   */
  saved: (() => Promise<void> | undefined) | undefined;

  /** Moves a payment's money (payment.ts); unset, a payment just gets a receipt. */
  pay: ((prompt: Prompt) => Payment) | undefined;

  /** A phone page is open for a number ('*' for every number); auto-approval waits meanwhile. */
  watch(phoneNumber: string): () => void {
    this.#watchers.set(phoneNumber, (this.#watchers.get(phoneNumber) ?? 0) + 1);
    return () => {
      const left = (this.#watchers.get(phoneNumber) ?? 1) - 1;
      if (left > 0) this.#watchers.set(phoneNumber, left);
      else this.#watchers.delete(phoneNumber);
      for (const id of [...this.#autoDue]) {
        const prompt = this.#prompts.get(id);
        if (prompt && !this.#isWatched(prompt.phoneNumber)) this.#autoApprove(id);
      }
    };
  }

  reset(): void {
    for (const id of this.#timers.keys()) this.#clearTimers(id);
    this.#prompts.clear();
    this.#next.clear();
    this.#autoDue.clear();
    this.#generation++;
    this.#emit({ type: 'reset' });
  }

  #isWatched(phoneNumber: string): boolean {
    return (this.#watchers.get(phoneNumber) ?? 0) > 0 || (this.#watchers.get('*') ?? 0) > 0;
  }

  #autoApprove(id: string): void {
    const prompt = this.#prompts.get(id);
    if (!prompt || prompt.state !== 'open') return;
    if (this.#isWatched(prompt.phoneNumber)) {
      this.#autoDue.add(id);
      return;
    }
    this.complete(id, '0', 'auto-approval');
  }

  /** The repeat rule (SIM_REPEAT_RULE), which a forced result does not obey. */
  #isRepeat(prompt: Prompt, now: Date): boolean {
    if (prompt.plan === 'forced' || !this.#config.repeatRule) return false;
    for (const other of this.#prompts.values()) {
      if (
        other !== prompt &&
        other.phoneNumber === prompt.phoneNumber &&
        other.amount === prompt.amount &&
        other.resultCode === '0' &&
        other.completedAt !== null &&
        now.getTime() - Date.parse(other.completedAt) < REPEAT_WINDOW_MS
      ) {
        return true;
      }
    }
    return false;
  }

  async #deliver(prompt: Prompt): Promise<void> {
    const generation = this.#generation;
    await deliverCallback(
      {
        ids: { checkoutRequestId: prompt.checkoutRequestId },
        url: prompt.callbackUrl,
        body: callbackBody(prompt),
        fault: prompt.fault,
        current: () => generation === this.#generation,
        saved: () => this.saved?.(),
        onState: (state) => {
          prompt.callback = state;
          this.#emit({ type: 'prompt', prompt });
        },
        onAttempt: (attempt) => this.#emit({ type: 'callback', attempt }),
      },
      { config: this.#config, clock: this.#clock, faults: this.#faults },
    );
  }

  #clearTimers(id: string): void {
    for (const timer of this.#timers.get(id) ?? []) this.#clock.clearTimeout(timer);
    this.#timers.delete(id);
  }

  #evict(): void {
    if (this.#prompts.size <= MAX_PROMPTS) return;
    for (const [id, prompt] of this.#prompts) {
      if (this.#prompts.size <= MAX_PROMPTS) break;
      if (prompt.state === 'completed') this.#prompts.delete(id);
    }
  }

  #emit(event: SimEvent): void {
    this.emit('change', event);
  }
}
