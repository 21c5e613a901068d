/**
 * The seam between the simulator and each Daraja API it speaks. An API is one folder here
 * (stk/ for M-PESA Express: STK push and STK query) that exports one `DarajaOperation`, and one
 * line in index.ts lists it. The app registers its routes, SIM_STATE keeps what it asks to keep,
 * the fault rules may target the names it gives its requests, the event stream and the reset
 * reach it, and the OpenAPI description shows its docs: each loops over the list.
 *
 * OAuth is not an operation: it is Daraja's shared transport (daraja/), the token every API's
 * calls carry, as are the error envelope, the fault rules drawn on a request and callback
 * delivery (callbacks.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { SimClock } from '../clock.ts';
import type { SimulatorConfig } from '../config.ts';
import type { DarajaGate } from '../daraja/gate.ts';
import type { FaultPlan } from '../faults.ts';
import type { Ledger } from '../money/ledger.ts';
import type { RequestLog } from '../request-log.ts';
import type { RouteDocs } from '../route-docs.ts';
import type { InitiatorBook } from './initiators/initiator-book.ts';
import type { NextOutcomes } from './outcomes/next-outcomes.ts';

/** What the simulator shares with every operation. */
export interface OperationContext {
  config: SimulatorConfig;
  /** One clock for everything that waits or reads the time, so that moving it moves them all. */
  clock: SimClock;
  faults: FaultPlan;
  /** The live log: an operation adds its callbacks' attempts (the Daraja scope adds requests). */
  log: RequestLog;
  /**
   * The simulated money (money/ledger.ts): one for every operation, so that what STK push or C2B
   * pays in, B2C pays out and account balance reports. The money operation keeps and resets it.
   */
  ledger: Ledger;
  /**
   * The initiators of the Result APIs: `initiators.check(fields, 'Initiator')` checks a request's
   * initiator and SecurityCredential (initiators/initiator-book.ts). One for all operations.
   */
  initiators: InitiatorBook;
  /**
   * Outcomes on demand for every API but STK push: each API registers its magic numbers and
   * result codes when it starts, and takes a number's chosen outcome (outcomes/next-outcomes.ts).
   */
  outcomes: NextOutcomes;
}

/** The control app as its zod-typed routes see it. */
export type ControlApp = Parameters<FastifyPluginAsyncZod>[0];

/** Sends one server-sent event of GET /_sim/events. */
export type SendEvent = (event: string, data: unknown) => void;

/** One running simulator's side of an operation: its store and what works on it. */
export interface RunningOperation {
  /** Adds its Daraja routes; `gate` draws the fault rules and checks token and body first. */
  darajaRoutes(app: FastifyInstance, gate: DarajaGate): void;
  /** Adds its routes under /_sim/ (the prefix is already set). */
  controlRoutes(app: ControlApp): void;
  /** SIM_STATE: what the file keeps of it (the keys of the operation's `kept`). */
  snapshot(): Record<string, unknown>;
  /** Carries on from what the file held (already checked against the operation's `kept`). */
  restore(saved: Record<string, unknown>): void;
  /**
   * Calls `changed` after every change the file must keep; `saved` tells, when it is set, when
   * the file holds them. Returns what stops it. A request that succeeds (any but GET) has the
   * state written before its answer anyway (scopes.ts); `changed` is what keeps the rest: what
   * timers and callbacks change, between requests.
   */
  keep(changed: () => void, saved: () => Promise<void> | undefined): () => void;
  /** GET /_sim/events: what the first event shows, and the events that follow, until stopped. */
  hello(): Record<string, unknown>;
  subscribe(send: SendEvent): () => void;
  /** A person is looking at a phone ('*': at every phone) until the function returned is called. */
  watch(phoneNumber: string): () => void;
  /** What it adds to GET /_sim/info (its magic numbers, say), if anything. */
  info?(): Record<string, unknown>;
  /** POST /_sim/reset and the simulator's close: forgets everything, stops every timer. */
  reset(): void;
}

export interface DarajaOperation<
  Running extends RunningOperation = RunningOperation,
  Kept extends z.ZodObject = z.ZodObject,
> {
  /** Its folder's name. */
  name: string;
  /** What fault rules may name its requests by (`stkpush`, `query`), in the order they are listed. */
  faultTargets: readonly string[];
  /** Its keys in the SIM_STATE file, each with its schema. */
  kept: Kept;
  /** Its Daraja routes in the description, keyed by method and path. */
  docs(config: SimulatorConfig): Record<string, RouteDocs>;
  /** Its /_sim/ routes in the description. */
  controlDocs(config: SimulatorConfig): Record<string, RouteDocs>;
  start(context: OperationContext): Running;
}
