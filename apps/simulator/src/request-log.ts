/**
 * The live log: every request the simulator answered and every callback it delivered, newest first.
 * It answers the commonest integration question: did my callback arrive, and what did my server say?
 * Entries are masked as they are added (redact.ts), so nothing the log holds reveals a secret.
 */
import { EventEmitter } from 'node:events';
import type { CallbackAttempt } from './callbacks.ts';
import { redactAuthorization, redactBody, redactText, redactUrl } from './redact.ts';

export type LogEntry =
  | {
      id: number;
      at: string;
      kind: 'request';
      method: string;
      path: string;
      authorization: string | null;
      requestBody: unknown;
      /** null: a fault rule dropped the connection, with no answer (PUT /_sim/faults). */
      status: number | null;
      responseBody: unknown;
      durationMs: number;
    }
  | ({ id: number; at: string; kind: 'callback' } & CallbackAttempt);

type NewEntry = LogEntry extends infer E ? (E extends LogEntry ? Omit<E, 'id'> : never) : never;

const MAX_ENTRIES = 500;

export class RequestLog extends EventEmitter<{ entry: [LogEntry] }> {
  #entries: LogEntry[] = [];
  #nextId = 1;

  /** Adds an entry as received or sent; what is kept has its secrets masked. */
  add(entry: NewEntry): LogEntry {
    const full = { ...redacted(entry), id: this.#nextId++ } as LogEntry;
    this.#entries.push(full);
    if (this.#entries.length > MAX_ENTRIES)
      this.#entries.splice(0, this.#entries.length - MAX_ENTRIES);
    this.emit('entry', full);
    return full;
  }

  list(filter: { kind?: LogEntry['kind']; limit?: number } = {}): LogEntry[] {
    const entries = filter.kind
      ? this.#entries.filter((e) => e.kind === filter.kind)
      : this.#entries;
    return entries.slice(-(filter.limit ?? MAX_ENTRIES)).reverse();
  }

  clear(): void {
    this.#entries = [];
  }
}

function redacted(entry: NewEntry): NewEntry {
  if (entry.kind === 'request') {
    return {
      ...entry,
      path: redactUrl(entry.path),
      authorization: redactAuthorization(entry.authorization),
      requestBody: redactBody(entry.requestBody),
      responseBody: redactBody(entry.responseBody),
    };
  }
  return {
    ...entry,
    url: redactUrl(entry.url),
    requestBody: redactBody(entry.requestBody),
    responseBody: entry.responseBody === null ? null : redactText(entry.responseBody),
  };
}
