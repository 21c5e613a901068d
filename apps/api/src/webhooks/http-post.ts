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
import { allowedAddress, hostOf, UrlRefused, type Resolve, type UrlPolicy } from './url-guard.ts';

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
  if (input.signal?.aborted)
    return { status: null, durationMs: 0, response: null, error: ABANDONED, abandoned: true };
  let target;
  try {
    target = await allowedAddress(host, input.policy, input.resolve);
  } catch (error) {
    if (!(error instanceof UrlRefused)) throw error;
    return { status: null, durationMs: elapsed(), response: null, error: error.message };
  }
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
      lookup: checkedLookup(target.address, target.family),
      ...(isIP(host) === 0 ? { servername: host } : {}),
    });
    const deadline = setTimeout(
      () =>
        finish({
          status: null,
          response: null,
          error: `No answer within ${input.timeoutMs} ms.`,
        }),
      input.timeoutMs,
    );
    const abandon = () =>
      finish({ status: null, response: null, error: ABANDONED, abandoned: true });
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
