/** HTTP spoken by hand over a socket, for what fetch and inject() cannot do: send slowly or badly. */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Listens on a free local port and returns it. */
export async function listenLocally(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as net.AddressInfo).port;
}

export interface RawConnection {
  socket: net.Socket;
  /** Everything the server has sent so far. */
  received(): string;
  /** Resolves when the server (or anyone) closes the connection, with the time it took. */
  closed: Promise<number>;
  /** Writes `text`, then again every `everyMs` until the connection closes. */
  trickle(text: string, everyMs: number): void;
}

export function connect(port: number): RawConnection {
  const socket = net.connect(port, '127.0.0.1');
  const opened = Date.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => resolve(Date.now() - opened)),
  );
  return {
    socket,
    received: () => received,
    closed,
    trickle(text, everyMs) {
      const timer = setInterval(() => {
        if (socket.writable) socket.write(text);
      }, everyMs);
      void closed.then(() => clearInterval(timer));
      socket.write(text);
    },
  };
}

/** How long the connection stayed open, or Infinity if it is still open after `limitMs`. */
export function closedWithin(connection: RawConnection, limitMs: number): Promise<number> {
  const deadline = new Promise<number>((resolve) =>
    setTimeout(() => resolve(Number.POSITIVE_INFINITY), limitMs).unref(),
  );
  return Promise.race([connection.closed, deadline]);
}

/** The status and JSON body of the first response in `raw`. */
export function firstResponse(raw: string): { status: number; body: unknown } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
  const start = raw.indexOf('\r\n\r\n') + 4;
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(raw)?.[1] ?? 0);
  return { status, body: length > 0 ? JSON.parse(raw.slice(start, start + length)) : undefined };
}
