/**
 * A Daraja client's round trip against the packed simulator: OAuth, an STK push for 0700000000
 * (which pays), the callback at a receiver of ours, an STK query.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CheckFailed, check } from './processes.ts';

const SHORTCODE = '174379';
const PASSKEY = 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919';
const PAYS = '254700000000';

export interface Receiver {
  url: string;
  next(timeoutMs: number): Promise<unknown>;
  close(): Promise<void>;
}

/** A callback endpoint on this machine: answers 200 as a client should, and keeps what it got. */
export async function startReceiver(): Promise<Receiver> {
  const received: unknown[] = [];
  let wake: (() => void) | undefined;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      try {
        received.push(JSON.parse(body));
      } catch {
        received.push({ notJson: body });
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ResultCode: 0, ResultDesc: 'Accepted' }));
      wake?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mpesa/callback`,
    async next(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (received.length === 0) {
        check(Date.now() < deadline, `no callback arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      return received.shift();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function json(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new CheckFailed(`${response.url} answered ${response.status} with non-JSON: ${text}`);
  }
}

/** A token, as any Daraja client gets one first. */
export async function accessToken(base: string): Promise<string> {
  const basic = Buffer.from('check-key:check-secret').toString('base64');
  const grant = await json(
    await fetch(`${base}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { Authorization: `Basic ${basic}` },
    }),
  );
  return String(grant.access_token);
}

/** Nairobi time (UTC+3, no daylight saving), as Daraja's Timestamp wants it: YYYYMMDDHHmmss. */
function timestamp(): string {
  return new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 19).replace(/[-T:]/g, '');
}

export async function roundTrip(base: string, receiver: Receiver) {
  const basic = Buffer.from('check-key:check-secret').toString('base64');
  const oauth = await fetch(`${base}/oauth/v1/generate?grant_type=client_credentials`, {
    headers: { Authorization: `Basic ${basic}` },
  });
  const grant = await json(oauth);
  check(
    oauth.status === 200 && typeof grant.access_token === 'string',
    `OAuth answered ${oauth.status}: ${JSON.stringify(grant)}`,
  );
  const auth = {
    Authorization: `Bearer ${grant.access_token}`,
    'Content-Type': 'application/json',
  };
  const ts = timestamp();
  const password = Buffer.from(`${SHORTCODE}${PASSKEY}${ts}`).toString('base64');

  const push = await fetch(`${base}/mpesa/stkpush/v1/processrequest`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      BusinessShortCode: SHORTCODE,
      Password: password,
      Timestamp: ts,
      TransactionType: 'CustomerPayBillOnline',
      Amount: 1,
      PartyA: PAYS,
      PartyB: SHORTCODE,
      PhoneNumber: PAYS,
      CallBackURL: receiver.url,
      AccountReference: 'Package',
      TransactionDesc: 'Check',
    }),
  });
  const accepted = await json(push);
  check(
    push.status === 200 &&
      accepted.ResponseCode === '0' &&
      typeof accepted.CheckoutRequestID === 'string',
    `the STK push answered ${push.status}: ${JSON.stringify(accepted)}`,
  );

  const callback = (await receiver.next(15_000)) as {
    Body?: {
      stkCallback?: {
        CheckoutRequestID?: string;
        ResultCode?: number;
        CallbackMetadata?: { Item?: { Name: string; Value?: unknown }[] };
      };
    };
  };
  const result = callback.Body?.stkCallback;
  const items = Object.fromEntries(
    (result?.CallbackMetadata?.Item ?? []).map((item) => [item.Name, item.Value]),
  );
  check(
    result?.CheckoutRequestID === accepted.CheckoutRequestID &&
      result.ResultCode === 0 &&
      items.Amount === 1 &&
      typeof items.MpesaReceiptNumber === 'string' &&
      String(items.PhoneNumber) === PAYS,
    `the callback is not a paid Body.stkCallback for this push: ${JSON.stringify(callback)}`,
  );

  const query = await fetch(`${base}/mpesa/stkpushquery/v1/query`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      BusinessShortCode: SHORTCODE,
      Password: password,
      Timestamp: ts,
      CheckoutRequestID: accepted.CheckoutRequestID,
    }),
  });
  const status = await json(query);
  check(
    query.status === 200 && status.ResultCode === '0',
    `the STK query answered ${query.status}: ${JSON.stringify(status)}`,
  );
}
