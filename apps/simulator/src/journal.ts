/**
 * The journal (SIM_JOURNAL=file.jsonl): every entry of the request log, one JSON object per line,
 * appended as it happens: each request with the simulator's answer, each callback delivery with
 * the receiver's answer. Entries are masked as the log masks them (redact.ts: passwords, tokens,
 * the secret in a callback URL), so the file can be shared; callback bodies are kept whole, and
 * `daraja-simulator replay` sends them again (replay.ts).
 */
import fs from 'node:fs';
import { SimulatorConfigError } from './config.ts';
import { fileProblem } from './files.ts';
import type { LogEntry, RequestLog } from './request-log.ts';

export interface Journal {
  /** Waits until every line so far is written, and stops writing. */
  close(): Promise<void>;
}

/**
 * Appends the log's entries to the file from now on. A write that fails (a full disk, the file's
 * folder removed) is said once through `onError`, and the journal stops there: the simulator goes
 * on, and closing it is not held up by the failure.
 */
export function writeJournal(
  file: string,
  log: RequestLog,
  onError: (message: string) => void = () => {},
): Journal {
  const out = fs.createWriteStream(file, { flags: 'a' });
  let failed = false;
  out.on('error', (error) => {
    if (failed) return;
    failed = true;
    log.off('entry', write);
    onError(
      `SIM_JOURNAL ${file} could not be written (${fileProblem(file, error)}): the journal stops here; the simulator goes on.`,
    );
  });
  // Taken off the log once a write fails (above).
  const write = (entry: LogEntry) => out.write(`${JSON.stringify(entry)}\n`);
  log.on('entry', write);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        log.off('entry', write);
        if (failed) {
          resolve();
          return;
        }
        out.end(() => resolve());
      }),
  };
}

/** Checks that a journal can be written there, before the simulator starts. */
export function checkJournalPath(file: string): string | null {
  try {
    fs.closeSync(fs.openSync(file, 'a'));
    return null;
  } catch (error) {
    return `cannot write the journal ${file}: ${fileProblem(file, error)}`;
  }
}

/** SIM_JOURNAL's journal, started; a file that cannot be written stops the start, saying why. */
export function openJournal(
  file: string,
  log: RequestLog,
  onError: (message: string) => void,
): Journal {
  const problem = checkJournalPath(file);
  if (problem) throw new SimulatorConfigError('SIM_JOURNAL', `${problem}.`);
  return writeJournal(file, log, onError);
}
