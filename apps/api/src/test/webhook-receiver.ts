/**
 * A shop's system receiving webhooks, on 127.0.0.1: it keeps every request (headers and exact body)
 * and answers as the test says, one answer after another.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** How to answer one request: a status (and body), or a function of the raw response. */
export type Answer = number | ((response: http.ServerResponse) => void);

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** The answers to give, in turn; the last is repeated. */
  answers: Answer[];
  close(): Promise<void>;
}

export async function startReceiver(answers: Answer[] = [200], port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const receiver = { received, answers } as Receiver;
  let turn = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const list = receiver.answers;
      const answer = list[Math.min(turn++, list.length - 1)] ?? 200;
      if (typeof answer === 'function') return answer(response);
      response.writeHead(answer, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ received: answer < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
