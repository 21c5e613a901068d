/** Test harness: the simulator on a free port, a Daraja client's view of it, and a callback receiver. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { stkPassword } from '../operations/stk/password.ts';

export const SHORTCODE = '174379';
export const PASSKEY = 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919';

export { startSimulator } from '../testing.ts';
export type { RunningSimulator as Harness } from '../testing.ts';

export interface JsonAnswer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read any shape
}

export async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {},
): Promise<JsonAnswer> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: init.headers,
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body };
}

export async function token(base: string, key = 'key', secret = 'secret'): Promise<string> {
  const basic = Buffer.from(`${key}:${secret}`).toString('base64');
  const answer = await call(`${base}/oauth/v1/generate?grant_type=client_credentials`, {
    headers: { Authorization: `Basic ${basic}` },
  });
  return answer.body.access_token;
}

export function timestamp(at = new Date()): string {
  const eat = new Date(at.getTime() + 3 * 3600_000).toISOString();
  return eat.slice(0, 19).replace(/[-T:]/g, '');
}

/** Shortcode, Password and Timestamp as a client whose clock reads `at` (in Nairobi time) sends them. */
export function credentialsAt(at: Date) {
  const ts = timestamp(at);
  return {
    BusinessShortCode: SHORTCODE,
    Password: stkPassword(SHORTCODE, PASSKEY, ts),
    Timestamp: ts,
  };
}

export function pushBody(
  overrides: Record<string, unknown> = {},
  callbackUrl = 'https://example.com/cb',
) {
  return {
    ...credentialsAt(new Date()),
    TransactionType: 'CustomerPayBillOnline',
    Amount: 1,
    PartyA: '254708374149',
    PartyB: SHORTCODE,
    PhoneNumber: '254708374149',
    CallBackURL: callbackUrl,
    AccountReference: 'Test',
    TransactionDesc: 'Test',
    ...overrides,
  };
}

export function queryBody(checkoutRequestId: string) {
  return { ...credentialsAt(new Date()), CheckoutRequestID: checkoutRequestId };
}

export interface Receiver {
  url: string;
  /** Each callback with the path (and query) it was posted to. */
  received: Array<{ at: number; path: string; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Status codes to answer, in order; 200 once they run out. */
  answers: number[];
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** An HTTP server standing in for a merchant's callback endpoint (on a free port, unless given). */
export async function startReceiver(port = 0): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    answers: [],
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`only ${receiver.received.length} of ${count} callbacks arrived`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // A sender still waiting for an answer does not hold the test's end.
        server.closeAllConnections();
      }),
  };
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      // A body cut short (a sender that gave up under load) is kept as the text that came: a
      // throw here would leave the sender without an answer, and the test's close waiting on it.
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      receiver.received.push({ at: Date.now(), path: request.url ?? '', body });
      const status = receiver.answers.shift() ?? 200;
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify(
          status < 300 ? { ResultCode: 0, ResultDesc: 'Accepted' } : { error: 'nope' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return receiver;
}
