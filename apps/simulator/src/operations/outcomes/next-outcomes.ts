/**
 * Outcomes on demand for every Daraja API but STK push, whose prompt book keeps its own: the
 * numbers each API plays a fixed outcome for (its magic numbers, listed by GET /_sim/info and the
 * README) and the outcome chosen for a number's next request (PUT /_sim/numbers/:phone/next with
 * an `api`). Each API registers what it can play when it starts; B2C, for one, plays its result
 * codes for the receiving MSISDN.
 */
import { z } from 'zod';
import { DeliveryFaultSchema, type DeliveryFault } from '../../callbacks.ts';

/** What one API can be asked to play. */
export interface OutcomeMenu {
  /** ResultCode → ResultDesc: the outcomes a request may be given. */
  resultCodes: Readonly<Record<string, string>>;
  /** The numbers (12 digits, 2547…/2541…) that always play one of them, with what they mean. */
  forcedNumbers: Readonly<Record<string, { resultCode: string; meaning: string }>>;
}

/** A number's next outcome for one API: a result code, and how its Result is to be delivered. */
export const NextChoiceSchema = z
  .object({ resultCode: z.string().min(1).max(20), fault: DeliveryFaultSchema.optional() })
  .strict();
export type NextChoice = z.infer<typeof NextChoiceSchema>;

/** SIM_STATE's key: each API's chosen next outcomes, by number. */
export const OutcomesKeptSchema = z.object({
  nextOutcomes: z.record(z.string(), z.record(z.string(), NextChoiceSchema)).default({}),
});

/** A forced or chosen outcome for one request. */
export interface Forced {
  resultCode: string;
  fault: DeliveryFault;
}

export class NextOutcomes {
  readonly #menus = new Map<string, OutcomeMenu>();
  #next = new Map<string, Map<string, NextChoice>>();
  /** SIM_STATE's hook: called after every change the file must keep. */
  onChange: (() => void) | undefined;

  /** An API's menu, given once when it starts. */
  register(api: string, menu: OutcomeMenu): void {
    this.#menus.set(api, menu);
  }

  /** The APIs a next outcome can be chosen for, in the order they registered. */
  apis(): string[] {
    return [...this.#menus.keys()];
  }

  menu(api: string): OutcomeMenu | undefined {
    return this.#menus.get(api);
  }

  /**
   * Chooses the next outcome of `api` for `phone`; a sentence saying what is wrong when the API
   * or its result code is not one the simulator plays.
   */
  set(api: string, phone: string, choice: NextChoice): string | undefined {
    const menu = this.#menus.get(api);
    if (!menu) return `api must be one of ${['stk', ...this.apis()].join(', ')}`;
    if (!Object.hasOwn(menu.resultCodes, choice.resultCode)) {
      return `outcome must be one of ${Object.keys(menu.resultCodes).join(', ')} for ${api}`;
    }
    const numbers = this.#next.get(api) ?? new Map<string, NextChoice>();
    numbers.set(phone, choice);
    this.#next.set(api, numbers);
    this.onChange?.();
    return undefined;
  }

  clear(api: string, phone: string): void {
    if (this.#next.get(api)?.delete(phone)) this.onChange?.();
  }

  /**
   * What a request of `api` concerning `phone` is to play: the number's chosen next outcome (used
   * up by this request), else its magic number's, else nothing (the API decides as usual).
   */
  take(api: string, phone: string): Forced | undefined {
    const chosen = this.#next.get(api)?.get(phone);
    if (chosen) {
      this.clear(api, phone);
      return { resultCode: chosen.resultCode, fault: chosen.fault ?? {} };
    }
    const menu = this.#menus.get(api);
    const forced =
      menu && Object.hasOwn(menu.forcedNumbers, phone) ? menu.forcedNumbers[phone] : undefined;
    return forced ? { resultCode: forced.resultCode, fault: {} } : undefined;
  }

  /** GET /_sim/info: each API's magic numbers. */
  forcedNumbers(): Record<string, OutcomeMenu['forcedNumbers']> {
    return Object.fromEntries([...this.#menus].map(([api, menu]) => [api, menu.forcedNumbers]));
  }

  snapshot(): z.infer<typeof OutcomesKeptSchema> {
    return {
      nextOutcomes: Object.fromEntries(
        [...this.#next].map(([api, numbers]) => [api, Object.fromEntries(numbers)]),
      ),
    };
  }

  restore(saved: z.infer<typeof OutcomesKeptSchema>): void {
    this.#next = new Map(
      Object.entries(saved.nextOutcomes).map(([api, numbers]) => [
        api,
        new Map(Object.entries(numbers)),
      ]),
    );
  }

  reset(): void {
    this.#next.clear();
  }
}
