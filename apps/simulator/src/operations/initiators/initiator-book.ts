/**
 * The initiators the simulator knows (an M-PESA operator with API access, named by `Initiator`, or
 * B2C's `InitiatorName`) and the check of their SecurityCredential, which every API of the Result
 * family makes (docs/daraja-protocol.md §M2): the right password passes; a wrong one, or a wrong
 * name, is acknowledged and fails in the Result with 2001; after SIM_INITIATOR_LOCK_AFTER failures
 * in a row the initiator is locked (8006) until it is unlocked or the simulator reset. A missing or
 * spoilt credential is refused at once. §M2.6 says what the simulator chose where Daraja is not
 * known.
 *
 * One book serves every operation (operations/index.ts makes it); its failure counts and locks are
 * what SIM_STATE keeps of the `initiators` operation.
 */
import { z } from 'zod';
import { invalidField, type Failure } from '../../catalogue.ts';
import type { SimulatorConfig } from '../../config.ts';
import type { Fields } from '../../daraja/gate.ts';
import type { CredentialKey } from './credential.ts';

/** The field that names the initiator: B2C's `InitiatorName`, every other API's `Initiator`. */
export type InitiatorField = 'Initiator' | 'InitiatorName';

/** What `check` found. */
export type InitiatorCheck =
  /** Refused at once: answer `fail(reply, check.failure)` (daraja/envelope.ts), start nothing. */
  | { kind: 'refused'; failure: Failure }
  /** The credential is good: carry on. */
  | { kind: 'passed' }
  /** Acknowledge the request as usual, then send a Result with this code instead of doing it. */
  | { kind: 'failed'; resultCode: '2001' | '8006' };

/** One initiator as the control API shows it and SIM_STATE keeps it. */
export const InitiatorStateSchema = z.object({
  name: z.string(),
  /** Failed checks in a row since the last good one. */
  failures: z.number().int().min(0),
  locked: z.boolean(),
});
export type InitiatorState = z.infer<typeof InitiatorStateSchema>;

/** The SIM_STATE keys of the `initiators` operation; absent in a file written before it. */
export const InitiatorsKeptSchema = z.object({
  initiators: z.array(InitiatorStateSchema).default([]),
});

const INVALID_CREDENTIAL = invalidField('SecurityCredential');

export class InitiatorBook {
  readonly key: CredentialKey;
  readonly #config: SimulatorConfig;
  readonly #notice: (message: string) => void;
  readonly #states = new Map<string, InitiatorState>();
  /** Initiators already told about in the log for a credential made with another certificate. */
  readonly #noticed = new Set<string>();

  /** `notice`: the log line for a credential the simulator cannot read (once per initiator). */
  constructor(config: SimulatorConfig, key: CredentialKey, notice: (message: string) => void) {
    this.#config = config;
    this.key = key;
    this.#notice = notice;
    this.reset();
  }

  /** Called after every change SIM_STATE must keep. */
  onChange: (() => void) | undefined;

  /**
   * Checks a request's initiator and SecurityCredential. `nameField` is the field that names the
   * initiator in this API (B2C: `InitiatorName`; the others: `Initiator`); a missing one is refused
   * as Daraja refuses any missing field, `Bad Request - Invalid <field>`.
   */
  check(fields: Fields, nameField: InitiatorField): InitiatorCheck {
    const name = fields[nameField];
    const credential = fields.SecurityCredential;
    if (typeof name !== 'string' || name.trim() === '') {
      return { kind: 'refused', failure: invalidField(nameField) };
    }
    if (typeof credential !== 'string' || credential.trim() === '') {
      return { kind: 'refused', failure: INVALID_CREDENTIAL };
    }
    const reading = this.key.read(credential.trim());
    if (reading.kind === 'malformed') return { kind: 'refused', failure: INVALID_CREDENTIAL };
    const state = this.#states.get(name);
    // A name nobody configured cannot be locked: there is no such operator to lock.
    if (!state) {
      this.#notice(
        `Initiator ${name} is not known: the simulator's is ${this.#config.initiatorName} ` +
          '(SIM_INITIATOR_NAME), so the request fails (2001).',
      );
      return { kind: 'failed', resultCode: '2001' };
    }
    if (state.locked) return { kind: 'failed', resultCode: '8006' };
    switch (reading.kind) {
      case 'ours':
        if (reading.password === this.#config.initiatorPassword) return this.#passed(state);
        this.#notice(this.#wrongPassword(name, reading.password));
        return this.#failed(state);
      case 'foreign':
        if (this.#config.strictCredentials) {
          this.#notice(
            `The SecurityCredential of initiator ${name} does not decrypt with the simulator's key: ` +
              "it was made with another certificate (Safaricom's, most likely), which " +
              'SIM_STRICT_CREDENTIALS fails (2001). Encrypt with the certificate at GET /_sim/certificate.',
          );
          return this.#failed(state);
        }
        this.#noticeForeign(name);
        return this.#passed(state);
      case 'oaep':
        this.#notice(
          `The SecurityCredential of initiator ${name} was made with the simulator's certificate ` +
            'but with OAEP padding: Daraja asks for PKCS#1 v1.5 padding (not OAEP), so it fails ' +
            '(2001). Encrypt with RSA_PKCS1_PADDING (PKCS1v15, RSA/ECB/PKCS1Padding).',
        );
        return this.#failed(state);
      case 'not-encrypted':
        this.#notice(
          `The SecurityCredential of initiator ${name} is not encrypted, so it fails (2001): ` +
            `${reading.what}, where a credential is 256 bytes of RSA in base64 (344 characters). ` +
            'Encrypt the password with the certificate at GET /_sim/certificate.',
        );
        return this.#failed(state);
    }
  }

  /**
   * What a credential made with our certificate held instead of the password, without showing the
   * password it held: the right one with something after it (a client that appends a timestamp,
   * as STK push's Password does), or another one. Digits appended are shown: a timestamp is no
   * secret.
   */
  #wrongPassword(name: string, password: string): string {
    const expected = this.#config.initiatorPassword;
    const start = `The SecurityCredential of initiator ${name} decrypts to`;
    const end = 'so it fails (2001). Encrypt SIM_INITIATOR_PASSWORD alone.';
    const characters = (count: number) => `${count} character${count === 1 ? '' : 's'}`;
    if (password.trim() === expected) {
      return `${start} the initiator's password with spaces or line breaks around it, ${end}`;
    }
    if (password.startsWith(expected)) {
      const extra = password.slice(expected.length);
      const shown = /^[0-9]{1,20}$/.test(extra) ? `: ${extra}, a timestamp perhaps` : '';
      return `${start} the initiator's password with ${characters(extra.length)} appended${shown}, ${end}`;
    }
    return `${start} another password (${characters(password.length)}) than SIM_INITIATOR_PASSWORD's, ${end}`;
  }

  /** Every initiator the simulator knows, with its failures and whether it is locked. */
  list(): InitiatorState[] {
    return [...this.#states.values()].map((state) => ({ ...state }));
  }

  /** Unlocks an initiator and forgets its failures; false when no initiator has that name. */
  unlock(name: string): boolean {
    const state = this.#states.get(name);
    if (!state) return false;
    this.#set(state, 0);
    return true;
  }

  /** The initiators that failed or are locked (SIM_STATE). */
  snapshot(): InitiatorState[] {
    return this.list().filter((state) => state.failures > 0 || state.locked);
  }

  /**
   * Carries on from what SIM_STATE held; names no longer configured are dropped. A lock is judged
   * again by SIM_INITIATOR_LOCK_AFTER as it is now: 0 unlocks, a higher threshold unlocks an
   * initiator whose failures no longer reach it, a lower one locks.
   */
  restore(saved: InitiatorState[]): void {
    for (const { name, failures } of saved) {
      const state = this.#states.get(name);
      if (state) Object.assign(state, { failures, locked: this.#locks(failures) });
    }
  }

  /** POST /_sim/reset: every initiator unlocked, with no failures. */
  reset(): void {
    const name = this.#config.initiatorName;
    this.#states.clear();
    this.#states.set(name, { name, failures: 0, locked: false });
    this.#noticed.clear();
    this.onChange?.();
  }

  #passed(state: InitiatorState): InitiatorCheck {
    if (state.failures > 0) this.#set(state, 0);
    return { kind: 'passed' };
  }

  /** One more failure; the one that reaches SIM_INITIATOR_LOCK_AFTER locks (the next get 8006). */
  #failed(state: InitiatorState): InitiatorCheck {
    this.#set(state, state.failures + 1);
    return { kind: 'failed', resultCode: '2001' };
  }

  #set(state: InitiatorState, failures: number) {
    state.failures = failures;
    state.locked = this.#locks(failures);
    this.onChange?.();
  }

  /** Whether this many failures in a row lock an initiator (SIM_INITIATOR_LOCK_AFTER; 0: never). */
  #locks(failures: number): boolean {
    const lockAfter = this.#config.initiatorLockAfter;
    return lockAfter > 0 && failures >= lockAfter;
  }

  #noticeForeign(name: string) {
    if (this.#noticed.has(name)) return;
    this.#noticed.add(name);
    this.#notice(
      `The SecurityCredential of initiator ${name} was not made with the simulator's certificate ` +
        "(Safaricom's, most likely), so its password cannot be read: accepted unchecked. Encrypt " +
        'the password with the certificate at GET /_sim/certificate to have it checked, or set ' +
        'SIM_STRICT_CREDENTIALS=true to refuse such credentials (2001). Said once per initiator.',
    );
  }
}
