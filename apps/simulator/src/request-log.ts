/**
 * The live log: every request the simulator answered and every callback it delivered, newest first.
 * It answers the commonest integration question: did my callback arrive, and what did my server say?
 */
import { EventEmitter } from 'node:events';
import type { CallbackAttempt } from './callbacks.ts';

export type LogEntry =
  | {
      id: number;
      at: string;
      kind: 'request';
      method: string;
      path: string;
      authorization: string | null;
      requestBody: unknown;
      status: number;
      responseBody: unknown;
      durationMs: number;
    }
  | ({ id: number; at: string; kind: 'callback' } & CallbackAttempt);

type NewEntry = LogEntry extends infer E ? (E extends LogEntry ? Omit<E, 'id'> : never) : never;

const MAX_ENTRIES = 500;

export class RequestLog extends EventEmitter<{ entry: [LogEntry] }> {
  #entries: LogEntry[] = [];
  #nextId = 1;

  add(entry: NewEntry): LogEntry {
    const full = { ...entry, id: this.#nextId++ } as LogEntry;
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

/** "Bearer c9SQxWWhmd…" — enough to tell tokens apart, not enough to reuse one. */
export function redactAuthorization(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, value = ''] = header.split(/\s+/, 2);
  return value.length > 6 ? `${scheme} ${value.slice(0, 6)}…` : `${scheme} …`;
}
