/**
 * C2B tests' merchant: a local server standing in for a merchant's validation and confirmation
 * URLs, whose validation answer each test chooses; and C2B's calls as a client makes them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, token, type Harness } from './harness.ts';

/** How the merchant answers the next validation request: a status and a body, or never. */
export type ValidationAnswer = { status?: number; body?: unknown; raw?: string } | { silent: true };

export interface Merchant {
  /** `${url}/validation` and `${url}/confirmation`. */
  url: string;
  received: Array<{ path: string; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The validation answers, in order; accepted (`ResultCode "0"`) once they run out. */
  answers: ValidationAnswer[];
  of(path: 'validation' | 'confirmation'): any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const ACCEPT = { ResultCode: '0', ResultDesc: 'Accepted' };

export async function startMerchant(): Promise<Merchant> {
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const path = (request.url ?? '').slice(1);
      merchant.received.push({ path, body: JSON.parse(text) });
      const answer = path === 'validation' ? (merchant.answers.shift() ?? {}) : {};
      if ('silent' in answer) return;
      response.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json' });
      const body = path === 'validation' ? ACCEPT : { ResultCode: 0, ResultDesc: 'Success' };
      response.end(answer.raw ?? JSON.stringify(answer.body ?? body));
    });
  });
  const merchant: Merchant = {
    url: '',
    received: [],
    answers: [],
    of: (path) => merchant.received.filter((each) => each.path === path).map((each) => each.body),
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (merchant.received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`only ${merchant.received.length} of ${count} notifications arrived`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  merchant.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return merchant;
}

/** C2B's Daraja calls, with a fresh token each time. */
export function c2bClient(sim: Harness) {
  const post = async (path: string, body: unknown) =>
    call(`${sim.url}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${await token(sim.url)}`,
      },
      body,
    });
  const control = (path: string, method = 'GET', body?: unknown) =>
    call(`${sim.url}/_sim${path}`, {
      method,
      ...(body !== undefined && { headers: { 'Content-Type': 'application/json' }, body }),
    });
  return {
    register: (fields: Record<string, unknown>, version = 'v1') =>
      post(`/mpesa/c2b/${version}/registerurl`, fields),
    simulate: (fields: Record<string, unknown>, version = 'v1') =>
      post(`/mpesa/c2b/${version}/simulate`, fields),
    control,
    /** Waits for a payment to reach one of its ends, and gives it as GET /_sim/c2b shows it. */
    async settled(transId?: string, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { body } = await control('/c2b');
        const payment = transId
          ? body.payments.find((each: { transId: string }) => each.transId === transId)
          : body.payments[0];
        if (payment && ['completed', 'cancelled', 'failed'].includes(payment.stage)) return payment;
        if (Date.now() > deadline) throw new Error(`not settled: ${JSON.stringify(payment)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

export function registration(merchant: Merchant, overrides: Record<string, unknown> = {}) {
  return {
    ShortCode: '600984',
    ResponseType: 'Completed',
    ConfirmationURL: `${merchant.url}/confirmation`,
    ValidationURL: `${merchant.url}/validation`,
    ...overrides,
  };
}

export function payment(overrides: Record<string, unknown> = {}) {
  return {
    ShortCode: 600984,
    CommandID: 'CustomerPayBillOnline',
    Amount: 1,
    Msisdn: 254705912645,
    BillRefNumber: 'Test Ref',
    ...overrides,
  };
}
