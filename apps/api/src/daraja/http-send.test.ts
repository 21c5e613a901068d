import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../test/ports.ts';
import { nodeHttpSend } from './http-send.ts';

/** A local server answering each request as `answer` says; it counts connections and requests. */
async function server(
  answer: (request: http.IncomingMessage, response: http.ServerResponse) => void,
) {
  const seen = {
    connections: 0,
    requests: [] as { method: string; headers: http.IncomingHttpHeaders; body: string }[],
  };
  const listening = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.requests.push({ method: request.method!, headers: request.headers, body });
      answer(request, response);
    });
  });
  listening.on('connection', () => (seen.connections += 1));
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const { port } = listening.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => {
      listening.closeAllConnections();
      return new Promise((resolve) => listening.close(resolve));
    },
  };
}

const signal = () => AbortSignal.timeout(5000);

describe("node:http's sender for Daraja", () => {
  let running: Awaited<ReturnType<typeof server>> | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('sends the request whole and reads the answer whole, on one kept-alive connection', async () => {
    running = await server((_request, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end('{"errorCode":"400.002.02"}');
    });
    const send = nodeHttpSend();
    const exchange = {
      url: `${running.url}/mpesa/stkpush/v1/processrequest`,
      method: 'POST' as const,
      headers: { Authorization: 'Bearer T', 'Content-Type': 'application/json' },
      body: '{"Amount":"10 KES ✓"}',
    };
    for (let i = 0; i < 3; i++) {
      await expect(send({ ...exchange, signal: signal() })).resolves.toEqual({
        status: 400,
        text: '{"errorCode":"400.002.02"}',
      });
    }
    expect(running.seen.connections).toBe(1);
    expect(running.seen.requests[0]).toMatchObject({
      method: 'POST',
      body: '{"Amount":"10 KES ✓"}',
      headers: {
        authorization: 'Bearer T',
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(exchange.body)),
      },
    });
  });

  it("gives up when the signal says so, with the signal's reason", async () => {
    running = await server(() => undefined);
    const answer = nodeHttpSend()({
      url: `${running.url}/oauth/v1/generate`,
      method: 'GET',
      headers: {},
      signal: AbortSignal.timeout(100),
    });
    await expect(answer).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('says an answer cut short was cut short, not an answer', async () => {
    running = await server((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"ResponseCode":');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const answer = nodeHttpSend()({
      url: `${running.url}/mpesa/stkpush/v1/processrequest`,
      method: 'POST',
      headers: {},
      body: '{}',
      signal: signal(),
    });
    await expect(answer).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('says a server nobody runs refused the connection', async () => {
    const port = await freePort();
    const answer = nodeHttpSend()({
      url: `http://127.0.0.1:${port}/oauth/v1/generate`,
      method: 'GET',
      headers: {},
      signal: signal(),
    });
    await expect(answer).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
