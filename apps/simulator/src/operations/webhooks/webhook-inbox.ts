/**
 * The development receiver's inbox: the webhooks the shop's API sent to POST /_sim/webhooks/inbox
 * (docs/webhooks.md, "The development receiver"), newest first, so that a developer in simulator
 * mode sees what a shop's own system would be sent: each body exactly as it came (the signature is
 * over those bytes) and the headers that sign and name it. In memory only: a restart or
 * POST /_sim/reset empties it, as it does the request log.
 */
import { EventEmitter } from 'node:events';

/** The most webhooks kept: older ones are forgotten as new ones come. */
export const MAX_INBOX_ENTRIES = 100;
/** The largest body taken (64 KiB): an event is one payment, a few kilobytes at most. */
export const MAX_INBOX_BODY_BYTES = 64 * 1024;
/** How many event ids the `?fail=` count remembers, so that it never grows without bound. */
const MAX_COUNTED_EVENTS = 1000;

/** One webhook as received, with what the receiver answered. */
export interface InboxEntry {
  id: number;
  /** When it came, on the simulator's clock. */
  at: string;
  /** The event's `type` and `id` from the body (null when the body is not an event's JSON). */
  eventType: string | null;
  eventId: string | null;
  /** The headers a receiver checks: `Mpesa-Signature` (`t=…,v1=…`) and `Mpesa-Event-Id`. */
  signature: string | null;
  eventIdHeader: string | null;
  contentType: string | null;
  /** The body exactly as received. */
  body: string;
  /** Which attempt at this event this is, as the receiver counted them (1 for the first). */
  attempt: number;
  /** What the receiver answered: 200, or 500 while `?fail=` asked it to fail. */
  status: number;
}

export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** `?fail=n`: answer 500 to the first n attempts at each event, then 200. */
  fail: number;
}

const header = (headers: Received['headers'], name: string): string | null => {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
};

/** The event's type and id, when the body is an event's JSON. */
function eventOf(body: string): { type: string | null; id: string | null } {
  try {
    const parsed = JSON.parse(body) as { type?: unknown; id?: unknown } | null;
    return {
      type: typeof parsed?.type === 'string' ? parsed.type : null,
      id: typeof parsed?.id === 'string' ? parsed.id : null,
    };
  } catch {
    return { type: null, id: null };
  }
}

export class WebhookInbox extends EventEmitter<{ entry: [InboxEntry]; cleared: [] }> {
  #entries: InboxEntry[] = [];
  #nextId = 1;
  /** Attempts seen per event id (the header's, else the body's), oldest first. */
  #attempts = new Map<string, number>();

  readonly #now: () => Date;

  constructor(now: () => Date) {
    super();
    this.#now = now;
  }

  /** Keeps one webhook and decides the answer: 500 while `fail` says so for this event, else 200. */
  receive({ headers, body, fail }: Received): InboxEntry {
    const event = eventOf(body);
    const eventIdHeader = header(headers, 'mpesa-event-id');
    const key = eventIdHeader ?? event.id;
    const attempt = (key === null ? 0 : (this.#attempts.get(key) ?? 0)) + 1;
    if (key !== null) this.#count(key, attempt);
    const entry: InboxEntry = {
      id: this.#nextId++,
      at: this.#now().toISOString(),
      eventType: event.type,
      eventId: event.id ?? eventIdHeader,
      signature: header(headers, 'mpesa-signature'),
      eventIdHeader,
      contentType: header(headers, 'content-type'),
      body,
      attempt,
      status: attempt <= fail ? 500 : 200,
    };
    this.#entries.unshift(entry);
    this.#entries.length = Math.min(this.#entries.length, MAX_INBOX_ENTRIES);
    this.emit('entry', entry);
    return entry;
  }

  /** Newest first. */
  list(): InboxEntry[] {
    return [...this.#entries];
  }

  /** Forgets every webhook and every count (DELETE /_sim/webhooks/inbox, POST /_sim/reset). */
  clear(): void {
    this.#entries = [];
    this.#attempts.clear();
    this.emit('cleared');
  }

  #count(key: string, attempt: number) {
    this.#attempts.delete(key); // re-inserted last: the Map's order is the eviction order
    this.#attempts.set(key, attempt);
    if (this.#attempts.size > MAX_COUNTED_EVENTS) {
      this.#attempts.delete(this.#attempts.keys().next().value!);
    }
  }
}
