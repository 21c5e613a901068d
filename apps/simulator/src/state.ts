/**
 * SIM_STATE=file: what a restart must not forget, kept in one JSON file. The issued access tokens,
 * every prompt (open ones carry on: their timers are set again from the times they hold; a
 * completed one whose callback was not yet delivered is delivered, late), the outcomes chosen for
 * numbers' next pushes, the ledger of simulated money, the fault rules and how far the clock was
 * moved. Each Daraja API (operations/) says which keys of the file are its own, and keeps and
 * restores them itself.
 *
 * When it is written: every change (a prompt created or ended, a callback's delivery starting,
 * succeeding or given up, a token issued or every token expired, a next outcome set or cleared,
 * fault rules set or cleared, a move of the clock, a reset) is in the file before the simulator
 * says anything that shows it: the answer to the request that made it, or to any request after
 * (scopes.ts holds answers back until `saved()` resolves), and the callback that reports how a
 * payment ended (prompt-book.ts). Each store says when it changed; besides, every request that
 * may start something (any but GET and HEAD) and is answered 2xx has the state written as it is
 * before its answer leaves (scopes.ts), so that what a Daraja API accepted is kept even if its
 * code forgot to say it changed something. So a process killed the moment after an answer finds,
 * after its restart, what it answered. The changes waiting at once share one write (a group
 * commit): a write starts when the one before it ends, holding everything changed meanwhile, so
 * that a burst of a thousand pushes makes a few writes, not a thousand. Each write replaces the
 * file whole (files.ts), so a simulator killed at any moment leaves the last complete state.
 *
 * A write that fails is logged once (until one succeeds again), and what waited for it is not
 * answered as done: a 500 in the simulator's error style. The next change, or the next request,
 * tries again.
 *
 * A callback that was being delivered when the process died may or may not have reached the
 * receiver: it is delivered again after the restart. Daraja can deliver a callback twice too
 * (docs/daraja-protocol.md §4.3); a receiver must take the same callback twice without paying
 * twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { SimClock } from './clock.ts';
import { SimulatorConfigError } from './config.ts';
import { faultsSchema } from './fault-rules.ts';
import type { FaultPlan } from './faults.ts';
import { fileProblem, replaceFile } from './files.ts';
import { OPERATIONS } from './operations/index.ts';
import type { RunningOperation } from './operations/operation.ts';
import { lockStateFile } from './state-lock.ts';
import type { TokenStore } from './tokens.ts';

/**
 * The file's format. 2 added the keys of the money APIs (the ledger, the initiators' failures and
 * locks, the other APIs' next outcomes, C2B's shortcodes and payments, the Results owed) and their
 * fault targets; a simulator that reads only 1 would drop those keys, and the money with them, so
 * it refuses a 2 ("version: Invalid input: expected 1"). This one reads a 1 as it is: the keys it
 * lacks start empty. A file of a later format is refused in a sentence (`readStateFile`).
 */
export const STATE_VERSION = 2;

const time = z.iso.datetime();
/** The simulator's own keys, before each Daraja API's. */
const head = {
  version: z.union([z.literal(1), z.literal(STATE_VERSION)]),
  savedAt: time,
  /** Each valid token with when it expires, in ms since the epoch. */
  tokens: z.array(z.tuple([z.string().min(1), z.number()])),
};
/** And after them. */
const tail = {
  /** How far POST /_sim/clock/advance had moved the clock ahead of the real one. */
  clockAheadMs: z.number().int().min(0).default(0),
  /** The fault rules (PUT /_sim/faults) with their seed; absent in a file from before they were kept. */
  faults: faultsSchema.optional(),
};

type Operations = typeof OPERATIONS;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (
  x: infer I,
) => void
  ? I
  : never;
/** Each Daraja API's keys (STK: `prompts` and `next`), as its `kept` schema says. */
type OperationsKept = UnionToIntersection<
  { [Name in keyof Operations]: z.infer<Operations[Name]['kept']> }[keyof Operations]
>;
export type SavedState = z.infer<z.ZodObject<typeof head & typeof tail>> & OperationsKept;

/** One object of several, their keys in order. */
const merge = <T>(parts: Record<string, T>[]): Record<string, T> =>
  parts.reduce((all, part) => ({ ...all, ...part }), {});

/**
 * The file's schema: the simulator's keys and each Daraja API's, in the order they are written.
 * Made from the list of operations, so its type is said, not inferred.
 */
const stateSchema = z.object({
  ...head,
  ...merge<z.ZodType>(Object.values(OPERATIONS).map((operation) => operation.kept.shape)),
  ...tail,
}) as unknown as z.ZodType<SavedState>;

const MOVE_IT_AWAY =
  'move it away (or delete it) to start afresh; the simulator does not overwrite a state file it cannot read, so that the prompts in it are not lost';

function stateError(problem: string): SimulatorConfigError {
  return new SimulatorConfigError('SIM_STATE', problem);
}

/** The state a file holds; undefined when there is none yet (no file, or an empty one). */
export function readStateFile(file: string): SavedState | undefined {
  // A device, a pipe or a socket would be read without end, and a rename would replace it.
  const kind = fs.statSync(file, { throwIfNoEntry: false });
  if (kind && !kind.isFile() && !kind.isDirectory()) {
    throw stateError(
      `${file} is not a regular file (a device, a pipe or a socket): give SIM_STATE a file of its own.`,
    );
  }
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    // No file yet: the first start with this setting. No folder: a mistyped path, said at once.
    if (missing && fs.existsSync(path.dirname(path.resolve(file)))) return undefined;
    throw stateError(`file ${file} cannot be used: ${fileProblem(file, error)}.`);
  }
  if (text.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw stateError(
      `file ${file} is not valid JSON (${(error as Error).message}): ${MOVE_IT_AWAY}.`,
    );
  }
  const version = typeof json === 'object' && json !== null && 'version' in json && json.version;
  if (typeof version === 'number' && version > STATE_VERSION) {
    throw stateError(
      `file ${file} is not a state file this simulator can read: a newer simulator wrote it (format ${version}; this one reads 1 to ${STATE_VERSION}). Start that simulator on it again, or ${MOVE_IT_AWAY}.`,
    );
  }
  const parsed = stateSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw stateError(
      `file ${file} is not a state file this simulator wrote (${where}${issue?.message ?? 'invalid'}): ${MOVE_IT_AWAY}.`,
    );
  }
  return parsed.data;
}

/** What the simulator keeps (SIM_STATE): its own stores, and each Daraja API's. */
export interface KeptStores {
  tokens: TokenStore;
  clock: SimClock;
  faults: FaultPlan;
  operations: RunningOperation[];
}

/**
 * What writes the stores to the file as they are now: the state is taken at once, before anything
 * else can change it, and the promise resolves when the file holds it. A state the file already
 * holds (its time of writing aside) is not written again: a request that may have changed
 * something and did not (scopes.ts asks after each) costs no write.
 */
function stateWriter(file: string, { tokens, clock, faults, operations }: KeptStores) {
  let written: string | undefined;
  return async () => {
    const kept = {
      tokens: tokens.snapshot(),
      ...merge(operations.map((operation) => operation.snapshot())),
      clockAheadMs: Math.round(clock.offsetMs),
      faults: faults.list(),
    };
    const text = JSON.stringify(kept);
    if (text === written) return;
    const state = { version: STATE_VERSION, savedAt: new Date().toISOString(), ...kept };
    await replaceFile(file, JSON.stringify(state));
    written = text;
  };
}

export interface StateKeeper {
  /**
   * A promise that the file holds every change made so far (it rejects if the write that was to
   * hold them failed), or undefined when it already does.
   */
  saved(): Promise<void> | undefined;
  /**
   * Something may have changed that no store said it changed: the next write takes the state as
   * it is, and writes it if it is not what the file holds.
   */
  changed(): void;
  /** Writes what has not been written, stops watching, and lets go of the file. */
  close(): Promise<void>;
}

/** Carries on from what the file held. The clock first: the prompts' timers are set from its time. */
function restore(saved: SavedState, { tokens, clock, faults, operations }: KeptStores) {
  clock.restoreOffset(saved.clockAheadMs);
  tokens.restore(saved.tokens);
  if (saved.faults) faults.set(saved.faults);
  for (const operation of operations) operation.restore(saved);
}

/**
 * Restores the simulator from the file (if it holds a state) and keeps the file up to date from
 * then on. A file that cannot be read, or written, stops the start with a sentence saying why.
 */
export async function keepState(
  file: string,
  stores: KeptStores,
  onSaveError: (message: string) => void,
): Promise<StateKeeper> {
  const saved = readStateFile(file);
  const lock = lockStateFile(file);
  const writeStateFile = stateWriter(file, stores);
  try {
    if (saved) restore(saved, stores);
    try {
      await writeStateFile();
    } catch (error) {
      throw stateError(`file ${file} cannot be written: ${fileProblem(file, error)}.`);
    }
  } catch (error) {
    lock.release();
    throw error;
  }
  const commit = groupCommit(writeStateFile, (error) =>
    onSaveError(`SIM_STATE file ${file} could not be written: ${fileProblem(file, error)}`),
  );
  const { tokens, clock, faults, operations } = stores;
  const unkeep = operations.map((operation) => operation.keep(commit.changed, commit.saved));
  tokens.onChange = commit.changed;
  clock.onAdvance = commit.changed;
  faults.onChange = commit.changed;
  return {
    saved: commit.saved,
    changed: commit.changed,
    async close() {
      for (const stop of unkeep) stop();
      tokens.onChange = undefined;
      clock.onAdvance = undefined;
      faults.onChange = undefined;
      try {
        await commit.saved();
      } catch {
        // Logged when it failed; there is no one left to tell.
      }
      lock.release();
    },
  };
}

/**
 * The writes of the file as changes come: `changed()` after each, `saved()` to wait for the file
 * to hold them all. A failed write is said once through `onFailure` (until one succeeds again).
 */
function groupCommit(writeFile: () => Promise<void>, onFailure: (error: unknown) => void) {
  let made = 0; // changes made since the start
  let kept = 0; // how many of them the file holds
  let queued: Promise<void> | undefined; // the next write: it holds every change made before it starts
  let writing: Promise<void> | undefined; // the write under way
  let failing = false;

  const write = async () => {
    // One write at a time. With none under way, the first waits for this turn of the event loop to
    // end, so that the requests that arrived together share it.
    await (writing?.catch(() => {}) ?? new Promise<void>((resolve) => setImmediate(resolve)));
    queued = undefined;
    const upTo = made;
    writing = writeFile();
    try {
      await writing;
      kept = upTo;
      failing = false;
    } catch (error) {
      // Once, not once for each request that waited on it, nor for each write that fails again.
      if (!failing) onFailure(error);
      failing = true;
      throw error;
    } finally {
      writing = undefined;
    }
  };
  const queue = () => {
    queued = write();
    // Nobody need wait on a write (a timer's change): its failure is logged above.
    queued.catch(() => {});
    return queued;
  };
  return {
    changed: () => {
      made++;
      queued ??= queue();
    },
    // Every change made before a write starts is in it, and a change made after queues the next:
    // with no next queued, the write under way holds them all. With neither, the last write
    // failed, and this tries again.
    saved: (): Promise<void> | undefined =>
      kept === made ? undefined : (queued ?? writing ?? queue()),
  };
}
