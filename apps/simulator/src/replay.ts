/**
 * `daraja-simulator replay file.jsonl --to URL`: sends the callbacks a journal (journal.ts)
 * recorded to a URL again, one after another in the order they were delivered, each exactly as
 * it was sent, so that a receiver's handling of real traffic (above all, of the same callback
 * delivered twice) can be tried again at will.
 */
import fs from 'node:fs';
import { accepted, sendCallback } from './callbacks.ts';
import { fileProblem } from './files.ts';
import { redactUrl } from './redact.ts';

export interface ReplayResult {
  line: number;
  /** An STK callback's CheckoutRequestID; null for the others. */
  checkoutRequestId: string | null;
  /** A Result's ConversationID (docs/daraja-protocol.md §M1.3): only a Result's line has one. */
  conversationId?: string;
  /** A C2B notification's TransID and which it is (docs/daraja-protocol.md §M3.3). */
  transId?: string;
  notification?: string;
  status: number | null;
  error: string | null;
}

/** How long replay waits for each answer unless --timeout-ms says. */
export const REPLAY_TIMEOUT_MS = 10_000;

export class ReplayError extends Error {
  override name = 'ReplayError';
}

interface JournalCallback {
  line: number;
  body: unknown;
  checkoutRequestId: string | null;
  conversationId?: string;
  transId?: string;
  notification?: string;
}

/** The callbacks a journal holds, in order; a line that is not a journal entry is an error naming it. */
export function journalCallbacks(text: string): JournalCallback[] {
  const callbacks: JournalCallback[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch {
      throw new ReplayError(`line ${index + 1} is not JSON: is this a SIM_JOURNAL file?`);
    }
    if (typeof entry !== 'object' || entry === null || !('kind' in entry)) {
      throw new ReplayError(`line ${index + 1} is not a journal entry (it has no "kind")`);
    }
    if (entry.kind === 'request') return;
    if (entry.kind !== 'callback') {
      throw new ReplayError(
        `line ${index + 1} is not a journal entry (its kind is ${JSON.stringify(entry.kind)}, not "request" or "callback")`,
      );
    }
    // A line names its callback by the ids callbacks.ts gives it: STK's CheckoutRequestID (every
    // journal written before Results existed), a Result's ConversationID, a C2B TransID.
    const { requestBody, checkoutRequestId, conversationId, transId, notification } = entry as {
      requestBody?: unknown;
      checkoutRequestId?: unknown;
      conversationId?: unknown;
      transId?: unknown;
      notification?: unknown;
    };
    if (requestBody === undefined) {
      throw new ReplayError(`line ${index + 1} is a callback with no body`);
    }
    callbacks.push({
      line: index + 1,
      body: requestBody,
      checkoutRequestId: typeof checkoutRequestId === 'string' ? checkoutRequestId : null,
      ...(typeof conversationId === 'string' && { conversationId }),
      ...(typeof transId === 'string' && { transId }),
      ...(typeof notification === 'string' && { notification }),
    });
  });
  return callbacks;
}

export function checkReplayUrl(to: string): URL {
  let url: URL;
  try {
    url = new URL(to);
  } catch {
    throw new ReplayError(
      `--to ${to} is not a URL (such as http://127.0.0.1:3000/api/mpesa/callback/…)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ReplayError(`--to ${to} must be an http or https URL`);
  }
  return url;
}

export async function replayJournal(
  file: string,
  to: string,
  options: { timeoutMs?: number; onResult?: (result: ReplayResult) => void } = {},
): Promise<ReplayResult[]> {
  const url = checkReplayUrl(to);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ReplayError(`cannot read ${file}: ${fileProblem(file, error)}`);
  }
  const results: ReplayResult[] = [];
  const timeoutMs = options.timeoutMs ?? REPLAY_TIMEOUT_MS;
  let callbacks: JournalCallback[];
  try {
    callbacks = journalCallbacks(text);
  } catch (error) {
    if (error instanceof ReplayError) throw new ReplayError(`${file}: ${error.message}`);
    throw error;
  }
  for (const callback of callbacks) {
    const { status, error } = await sendCallback(url.href, callback.body, timeoutMs);
    const result: ReplayResult = { ...describe(callback), status, error };
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}

function describe({ body: _body, ...named }: JournalCallback) {
  return named;
}

/**
 * The replay command as server.ts runs it: a line per callback sent, with the receiver's answer,
 * then a summary. Returns the exit code: 0 when every callback was answered with a 2xx, 1 when
 * any was not, when there was none to send, or when the file or the URL is wrong.
 */
export async function runReplay(
  command: { file: string; to: string; timeoutMs: number },
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let results: ReplayResult[];
  try {
    results = await replayJournal(command.file, command.to, {
      timeoutMs: command.timeoutMs,
      onResult: (result) => {
        const answer = result.status === null ? `no answer: ${result.error}` : result.status;
        const c2b = result.transId && `${result.transId} (${result.notification ?? 'C2B'})`;
        const name = result.checkoutRequestId ?? result.conversationId ?? c2b ?? 'callback';
        out(`line ${result.line}: ${name} → ${answer}`);
      },
    });
  } catch (error) {
    if (!(error instanceof ReplayError)) throw error;
    err(`replay: ${error.message}${/[.?!]$/.test(error.message) ? '' : '.'}`);
    return 1;
  }
  if (results.length === 0) {
    err(`${command.file} holds no callbacks: nothing was sent.`);
    return 1;
  }
  const good = results.filter(accepted).length;
  const summary = `${good} of ${results.length} callbacks sent to ${redactUrl(command.to)} answered with a 2xx.`;
  if (good === results.length) {
    out(summary);
    return 0;
  }
  err(summary);
  return 1;
}
