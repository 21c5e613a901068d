/**
 * SIM_STATE=file: what a restart must not forget, kept in one JSON file. The issued access tokens,
 * every prompt (open ones carry on: their timers are set again from the times they hold; a
 * completed one whose callback was not yet delivered is delivered, late) and the outcomes chosen
 * for numbers' next pushes.
 *
 * When it is written: within SAVE_WITHIN_MS of any change (a prompt created or ended, a callback's
 * delivery starting, succeeding or given up, a token issued or every token expired, a next outcome
 * set or cleared, a reset), all the changes in that window in one write, so that a burst of a
 * thousand pushes makes a few writes, not a thousand; and once more when the simulator closes.
 * Each write replaces the file whole (files.ts), so a simulator killed at any moment leaves the
 * last complete state.
 *
 * A callback that was being delivered when the process died may or may not have reached the
 * receiver: it is delivered again after the restart. Daraja can deliver a callback twice too
 * (PROTOCOL.md §4.3); a receiver must take the same callback twice without paying twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { DeliveryFault } from './callbacks.ts';
import { REFUSALS, type RefusalName } from './catalogue.ts';
import { SimulatorConfigError } from './config.ts';
import { fileProblem, replaceFile } from './files.ts';
import type { SimClock } from './clock.ts';
import type { NextOutcome, Prompt, PromptBook } from './prompts.ts';
import type { TokenStore } from './tokens.ts';

/** How soon after a change the file holds it: a process killed later than that finds it there. */
export const SAVE_WITHIN_MS = 50;

const STATE_VERSION = 1;

const count = z.number().int().min(0);
const faultSchema: z.ZodType<DeliveryFault> = z
  .object({
    duplicates: count.optional(),
    delayMs: count.optional(),
    drop: z.boolean().optional(),
    retries: count.optional(),
    retryIntervalMs: count.optional(),
  })
  .strict();

const time = z.iso.datetime();
const promptSchema: z.ZodType<Prompt> = z.object({
  checkoutRequestId: z.string().min(1),
  merchantRequestId: z.string(),
  businessShortCode: z.string(),
  transactionType: z.string(),
  amount: z.number(),
  partyA: z.string(),
  partyB: z.string(),
  phoneNumber: z.string(),
  callbackUrl: z.string(),
  accountReference: z.string(),
  transactionDesc: z.string(),
  createdAt: time,
  expiresAt: time,
  plan: z.enum(['forced', 'auto', 'manual']),
  forcedResult: z.string().nullable(),
  state: z.enum(['open', 'completed']),
  resultCode: z.string().nullable(),
  resultDesc: z.string().nullable(),
  receiptNumber: z.string().nullable(),
  completedAt: time.nullable(),
  completedBy: z.string().nullable(),
  callback: z.enum(['waiting', 'delivering', 'delivered', 'failed', 'withheld']),
  fault: faultSchema,
});

const nextSchema: z.ZodType<NextOutcome> = z
  .object({
    outcome: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('result'), resultCode: z.string() }),
        z.object({
          kind: z.literal('refuse'),
          error: z.enum(Object.keys(REFUSALS) as [RefusalName, ...RefusalName[]]),
        }),
        z.object({ kind: z.literal('paid-no-callback') }),
        z.object({ kind: z.literal('manual') }),
        z.object({ kind: z.literal('auto') }),
      ])
      .optional(),
    fault: faultSchema.optional(),
  })
  .strict();

const stateSchema = z.object({
  version: z.literal(STATE_VERSION),
  savedAt: time,
  /** Each valid token with when it expires, in ms since the epoch. */
  tokens: z.array(z.tuple([z.string().min(1), z.number()])),
  prompts: z.array(promptSchema),
  next: z.array(z.tuple([z.string(), nextSchema])),
  /** How far POST /_sim/clock/advance had moved the clock ahead of the real one. */
  clockAheadMs: z.number().int().min(0).default(0),
});

export type SavedState = z.infer<typeof stateSchema>;

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

/** What the simulator keeps (SIM_STATE). */
export interface KeptStores {
  prompts: PromptBook;
  tokens: TokenStore;
  clock: SimClock;
}

export function writeStateFile(file: string, { prompts, tokens, clock }: KeptStores): void {
  const { prompts: all, next } = prompts.snapshot();
  const state: SavedState = {
    version: STATE_VERSION,
    savedAt: new Date().toISOString(),
    tokens: tokens.snapshot(),
    prompts: all,
    next,
    clockAheadMs: Math.round(clock.offsetMs),
  };
  replaceFile(file, JSON.stringify(state));
}

export interface StateKeeper {
  /** Writes what has changed since the last write, and stops watching. */
  close(): void;
}

/**
 * Restores the simulator from the file (if it holds a state) and keeps the file up to date from
 * then on. A file that cannot be read, or written, stops the start with a sentence saying why.
 */
export function keepState(
  file: string,
  stores: KeptStores,
  onSaveError: (message: string) => void,
): StateKeeper {
  const { prompts, tokens, clock } = stores;
  const saved = readStateFile(file);
  const lock = lockStateFile(file);
  try {
    if (saved) {
      // The clock first: the prompts' timers are set from its time.
      clock.restoreOffset(saved.clockAheadMs);
      tokens.restore(saved.tokens);
      prompts.restore({ prompts: saved.prompts, next: saved.next });
    }
    try {
      writeStateFile(file, stores);
    } catch (error) {
      throw stateError(`file ${file} cannot be written: ${fileProblem(file, error)}.`);
    }
  } catch (error) {
    lock.release();
    throw error;
  }

  let pending: NodeJS.Timeout | undefined;
  const save = () => {
    clearTimeout(pending);
    pending = undefined;
    try {
      writeStateFile(file, stores);
    } catch (error) {
      // The simulator goes on; the next change tries again.
      onSaveError(`SIM_STATE file ${file} could not be written: ${fileProblem(file, error)}`);
    }
  };
  // The first change starts the window; the changes that follow within it are in the same write.
  const changed = () => {
    pending ??= setTimeout(save, SAVE_WITHIN_MS).unref();
  };
  prompts.on('change', changed);
  tokens.onChange = changed;
  // A move of the clock is written before it is answered: a caller told it moved finds it so
  // after a crash.
  clock.onAdvance = save;
  return {
    close() {
      prompts.off('change', changed);
      tokens.onChange = undefined;
      clock.onAdvance = undefined;
      if (pending) save();
      lock.release();
    },
  };
}

interface StateLock {
  release(): void;
}

/**
 * Two simulators on one file would each overwrite what the other saved, and a restart would lose
 * one's prompts: the file is taken with `<file>.lock`, which holds the process id. A lock left by
 * a process that no longer runs (killed with SIGKILL) is taken over.
 */
function lockStateFile(file: string): StateLock {
  const lockFile = `${file}.lock`;
  const mine = String(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, mine, { flag: 'wx', mode: 0o600 });
      return {
        release: () => {
          const holder = fs.existsSync(lockFile) ? fs.readFileSync(lockFile, 'utf8') : '';
          if (holder === mine) fs.rmSync(lockFile, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw stateError(`lock ${lockFile} cannot be made: ${fileProblem(lockFile, error)}.`);
      }
    }
    const holder = Number.parseInt(fs.readFileSync(lockFile, 'utf8'), 10);
    if (Number.isInteger(holder) && holder > 0 && running(holder)) {
      throw stateError(
        `file ${file} is in use by another simulator (process ${holder}): give each simulator a file of its own (or, if no simulator uses it, delete ${lockFile}).`,
      );
    }
    fs.rmSync(lockFile, { force: true });
  }
  throw stateError(`lock ${lockFile} was taken by another simulator starting at the same time.`);
}

/** Whether a process with this id runs (this one included: a second simulator in it). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
