/**
 * One attempt at a delivery: a POST of the exact body to the endpoint, to an address checked by
 * url-guard.ts at this moment (connected to by that address, with the name as Host and TLS's SNI,
 * so that the DNS answer checked is the one used). Bounded on every side: one deadline from the
 * connection to the last byte read, at most RESPONSE_READ_MAX bytes of the answer read (of which
 * only a short plain-text excerpt is kept, answer-excerpt.ts), no
 * redirect followed (a 3xx is an answer like any other that is not 2xx: a failure), and no
 * connection kept or shared.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { answerExcerpt } from './answer-excerpt.ts';
import {
  allowedAddress,
  hostOf,
  UrlRefused,
  type Resolve,
  type ResolvedAddress,
  type UrlPolicy,
} from './url-guard.ts';

/** The most of an answer read: enough for its first words; the rest is never downloaded. */
export const RESPONSE_READ_MAX = 2048;

export interface PostInput {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  policy: UrlPolicy;
  resolve: Resolve;
  /** Aborted when the deliverer stops: the attempt is then abandoned, not recorded. */
  signal?: AbortSignal;
}

export interface PostResult {
  /** The HTTP status answered; null when none was (`error` says why). */
  status: number | null;
  durationMs: number;
  /** A short plain-text excerpt of a text-ish answer (answer-excerpt.ts), never its whole body. */
  response: string | null;
  error: string | null;
  /** Set when the attempt was cut short because the deliverer stopped: it says nothing. */
  abandoned?: true;
}

const ABANDONED = 'Abandoned: the deliverer stopped before an answer came.';
/** An attempt cut short by the deliverer stopping: not recorded, its claim given back. */
const abandoned = { status: null, response: null, error: ABANDONED, abandoned: true } as const;

/** Why no answer came, in a few words for the owner. */
function describeFailure(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const known: Record<string, string> = {
    ECONNREFUSED: 'The connection was refused.',
    ECONNRESET: 'The connection was cut.',
    EHOSTUNREACH: 'The host could not be reached.',
    ENETUNREACH: 'The network could not be reached.',
    ETIMEDOUT: 'The connection timed out.',
  };
  if (typeof code === 'string' && known[code]) return known[code];
  return typeof message === 'string' && message !== '' ? message : 'The request failed.';
}

const noAnswer = (input: PostInput) => `No answer within ${input.timeoutMs} ms.`;

/** `work`'s result, or what came first: the deadline (`late`) or the deliverer stopping. */
function beforeDeadline<T>(
  work: Promise<T>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<T | 'late' | 'stopped'> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  const stopped = new Promise<'stopped'>((resolve) => {
    onAbort = () => resolve('stopped');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, late, stopped]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  });
}

/** A lookup that answers the address already checked, whatever family Node asks for. */
function checkedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export async function postWebhook(input: PostInput): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(input.url);
  const host = hostOf(url);
  if (input.signal?.aborted) return { ...abandoned, durationMs: 0 };
  // The one deadline covers finding the address too: a nameserver that never answers is no answer.
  let target;
  try {
    target = await beforeDeadline(
      allowedAddress(host, input.policy, input.resolve),
      input.timeoutMs,
      input.signal,
    );
  } catch (error) {
    if (!(error instanceof UrlRefused)) throw error;
    return { status: null, durationMs: elapsed(), response: null, error: error.message };
  }
  if (target === 'late')
    return { status: null, durationMs: elapsed(), response: null, error: noAnswer(input) };
  if (target === 'stopped') return { ...abandoned, durationMs: elapsed() };
  return sendTo(input, url, target, elapsed);
}

/** The POST itself, to `address`, within what is left of the attempt's deadline. */
function sendTo(
  input: PostInput,
  url: URL,
  address: ResolvedAddress,
  elapsed: () => number,
): Promise<PostResult> {
  const host = hostOf(url);
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      input.signal?.removeEventListener('abort', abandon);
      request.destroy();
      resolve({ ...result, durationMs: elapsed() });
    };
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request({
      method: 'POST',
      hostname: host,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: {
        ...input.headers,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(input.body)),
        Host: url.host,
      },
      agent: false,
      lookup: checkedLookup(address.address, address.family),
      ...(isIP(host) === 0 ? { servername: host } : {}),
    });
    const deadline = setTimeout(
      () => finish({ status: null, response: null, error: noAnswer(input) }),
      Math.max(0, input.timeoutMs - elapsed()),
    );
    const abandon = () => finish(abandoned);
    input.signal?.addEventListener('abort', abandon, { once: true });
    if (input.signal?.aborted) abandon();
    request.on('error', (error) =>
      finish({ status: null, response: null, error: describeFailure(error) }),
    );
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let read = 0;
      const done = () =>
        finish({
          status: response.statusCode ?? null,
          response: answerExcerpt(
            Buffer.concat(chunks).subarray(0, RESPONSE_READ_MAX).toString('utf8'),
            response.headers['content-type'],
          ),
          error: null,
        });
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        read += chunk.length;
        // Enough: the rest is not read (the connection is closed instead).
        if (read >= RESPONSE_READ_MAX) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(input.body);
  });
}
