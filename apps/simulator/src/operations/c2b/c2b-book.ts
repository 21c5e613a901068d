/**
 * C2B's shortcodes and payments (docs/daraja-protocol.md §M3.6): the URLs each shortcode
 * registered and its validation settings, and each payment from the moment the customer pays to
 * its end: the merchant's validation (when turned on), the money moved in the ledger, the
 * confirmation. `payments.ts` walks a payment through; this keeps them, and what SIM_STATE needs.
 */
import { EventEmitter } from 'node:events';
import type { CallbackAttempt } from '../../callbacks.ts';
import type { OperationContext } from '../operation.ts';
import {
  C2bPaymentSchema,
  type C2bKept,
  type C2bPayment,
  type C2bShortcode,
  type C2bVersion,
  type Registration,
} from './c2b-kept.ts';
import type { RegisterRequest } from './validation.ts';

export type C2bEvent =
  | { type: 'payment'; payment: C2bPayment }
  | { type: 'shortcode'; shortcode: C2bShortcode }
  | { type: 'callback'; attempt: CallbackAttempt & { at: string } }
  | { type: 'reset' };

const MAX_PAYMENTS = 1000;

/** What a shortcode's control route can change (PUT /_sim/c2b/shortcodes/:shortcode). */
export interface ShortcodeChange {
  externalValidation?: boolean | undefined;
  /** null: back to SIM_C2B_VALIDATION_TIMEOUT_MS. */
  validationTimeoutMs?: number | null | undefined;
}

export type C2bContext = Pick<
  OperationContext,
  'config' | 'clock' | 'faults' | 'ledger' | 'outcomes'
>;

export class C2bBook extends EventEmitter<{ change: [C2bEvent] }> {
  readonly #shortcodes = new Map<string, C2bShortcode>();
  readonly #payments = new Map<string, C2bPayment>();
  /** Grows at each reset: a delivery begun before one stops there. */
  #generation = 0;
  /**
   * With SIM_STATE: a promise that the file holds every change made so far, or undefined if it
   * already does. Unset, nothing is kept.
   */
  saved: (() => Promise<void> | undefined) | undefined;

  shortcode(code: string): C2bShortcode | undefined {
    return this.#shortcodes.get(code);
  }

  shortcodes(): C2bShortcode[] {
    return [...this.#shortcodes.values()];
  }

  /** The newest first. */
  payments(): C2bPayment[] {
    return [...this.#payments.values()].reverse();
  }

  payment(transId: string): C2bPayment | undefined {
    return this.#payments.get(transId);
  }

  /**
   * Registers a shortcode's URLs through `version`'s path. False when they are registered already
   * and `once` (SIM_C2B_PRODUCTION_URLS) forbids a second time; else overwrites, as the sandbox.
   */
  register(request: RegisterRequest, version: C2bVersion, at: Date, once: boolean): boolean {
    const known = this.#known(request.shortCode);
    if (once && known.registration) return false;
    known.registration = {
      version,
      responseType: request.responseType,
      confirmationUrl: request.confirmationUrl,
      validationUrl: request.validationUrl,
      registeredAt: at.toISOString(),
    } satisfies Registration;
    this.#emit({ type: 'shortcode', shortcode: known });
    return true;
  }

  /** Forgets a shortcode's URLs, as deleting them in Safaricom's portal does. */
  unregister(code: string): C2bShortcode | undefined {
    const known = this.#shortcodes.get(code);
    if (!known) return undefined;
    known.registration = null;
    this.#emit({ type: 'shortcode', shortcode: known });
    return known;
  }

  setShortcode(code: string, change: ShortcodeChange): C2bShortcode {
    const known = this.#known(code);
    if (change.externalValidation !== undefined)
      known.externalValidation = change.externalValidation;
    if (change.validationTimeoutMs !== undefined)
      known.validationTimeoutMs = change.validationTimeoutMs;
    this.#emit({ type: 'shortcode', shortcode: known });
    return known;
  }

  add(payment: C2bPayment): void {
    this.#payments.set(payment.transId, payment);
    for (const [id, old] of this.#payments) {
      if (this.#payments.size <= MAX_PAYMENTS) break;
      if (old.stage !== 'validating' && old.stage !== 'confirming') this.#payments.delete(id);
    }
    this.changed(payment);
  }

  /** Tells SIM_STATE and the event stream that a payment changed. */
  changed(payment: C2bPayment): void {
    this.#emit({ type: 'payment', payment });
  }

  attempted(attempt: CallbackAttempt & { at: string }): void {
    this.#emit({ type: 'callback', attempt });
  }

  /** A check for a delivery: false once the book was reset after it began. */
  current(): () => boolean {
    const generation = this.#generation;
    return () => generation === this.#generation;
  }

  snapshot(): C2bKept {
    return {
      shortcodes: structuredClone(this.shortcodes()),
      payments: structuredClone([...this.#payments.values()]),
    };
  }

  /** Takes the kept shortcodes and payments back; `payments.ts` carries the payments on. */
  restore(kept: C2bKept): void {
    this.reset();
    for (const shortcode of kept.shortcodes) this.#shortcodes.set(shortcode.shortcode, shortcode);
    for (const payment of kept.payments) {
      this.#payments.set(payment.transId, C2bPaymentSchema.parse(payment));
    }
  }

  reset(): void {
    this.#shortcodes.clear();
    this.#payments.clear();
    this.#generation++;
    this.#emit({ type: 'reset' });
  }

  #known(code: string): C2bShortcode {
    const known = this.#shortcodes.get(code);
    if (known) return known;
    const fresh: C2bShortcode = {
      shortcode: code,
      registration: null,
      externalValidation: false,
      validationTimeoutMs: null,
    };
    this.#shortcodes.set(code, fresh);
    return fresh;
  }

  #emit(event: C2bEvent): void {
    this.emit('change', event);
  }
}
