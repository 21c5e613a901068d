/** A misbehaving Daraja for fault tests: OAuth works, STK push does whatever the test scripts. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type PushBehaviour =
  | { kind: 'hang' }
  | { kind: 'answer'; status: number; body: string; contentType?: string; delayMs?: number };

/** Daraja's acknowledgement of a push, with this CheckoutRequestID. */
export function ackBody(checkoutRequestId: string): string {
  return JSON.stringify({
    MerchantRequestID: '29115-34620561-1',
    CheckoutRequestID: checkoutRequestId,
    ResponseCode: '0',
    ResponseDescription: 'Success. Request accepted for processing',
    CustomerMessage: 'Success. Request accepted for processing',
  });
}

export interface FakeDaraja {
  url: string;
  pushes: number;
  behaviour: PushBehaviour;
  close(): Promise<void>;
}

export async function startFakeDaraja(behaviour: PushBehaviour): Promise<FakeDaraja> {
  const fake: FakeDaraja = { url: '', pushes: 0, behaviour, close: async () => {} };
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    if (request.url?.startsWith('/oauth/')) {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({ access_token: 'FakeToken0123456789abcdefghij', expires_in: '3599' }),
      );
      return;
    }
    fake.pushes++;
    const now = fake.behaviour;
    if (now.kind === 'hang') {
      hanging.push(response);
      return;
    }
    setTimeout(() => {
      response.writeHead(now.status, { 'Content-Type': now.contentType ?? 'application/json' });
      response.end(now.body);
    }, now.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise((resolve) => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
