/**
 * One HTTP exchange with Daraja (transport.ts): the request sent whole, the answer read whole, on
 * connections kept open between calls. Made with node:http rather than fetch, which cost a payment
 * about twice the CPU for the same exchange (its Request, Headers and web streams; measured in
 * docs/performance.md, "The payment path"). As fetch does, a connection is given up before the
 * server's keep-alive timeout says it will close it, and an idle one holds no process open.
 */
import http from 'node:http';
import https from 'node:https';

export interface HttpExchange {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Ends the exchange: its promise is rejected with the signal's reason. */
  signal: AbortSignal;
}

export interface HttpAnswer {
  status: number;
  text: string;
}

/** Rejects with the error of a request that got no whole answer (its `code` says why, if known). */
export type HttpSend = (exchange: HttpExchange) => Promise<HttpAnswer>;

/** What fetch sent besides the caller's headers: kept, so that Daraja sees the same request. */
const DEFAULT_HEADERS = { accept: '*/*', 'user-agent': 'node' };

/** node:http's sender, with its own connections (one set per Daraja client). */
export function nodeHttpSend(): HttpSend {
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
  return ({ url, method, headers, body, signal }) =>
    new Promise<HttpAnswer>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        reject(new TypeError(`Daraja's URL must be http or https, not ${target.protocol}`));
        return;
      }
      const payload = body === undefined ? undefined : Buffer.from(body);
      let done = false;
      const settle = (end: () => void) => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        end();
      };
      const request = (target.protocol === 'https:' ? https : http).request(target, {
        method,
        agent: agents[target.protocol],
        headers: {
          ...DEFAULT_HEADERS,
          ...headers,
          ...(payload ? { 'content-length': String(payload.length) } : {}),
        },
      });
      function onAbort() {
        settle(() => reject(signal.reason));
        request.destroy();
      }
      signal.addEventListener('abort', onAbort, { once: true });
      // `on`, not `once`: a request destroyed may report more than one error.
      request.on('error', (error) => settle(() => reject(error)));
      request.once('response', (response) => {
        response.setEncoding('utf8');
        let text = '';
        response.on('data', (chunk: string) => (text += chunk));
        response.once('end', () => settle(() => resolve({ status: response.statusCode!, text })));
        response.on('error', (error) => settle(() => reject(error)));
        // The connection closed before the answer's end.
        response.once('close', () =>
          settle(() =>
            reject(Object.assign(new Error('answer cut short'), { code: 'ECONNRESET' })),
          ),
        );
      });
      request.end(payload);
    });
}
