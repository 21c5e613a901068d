/**
 * A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL), which a test turns into the ways a
 * database goes away: connections cut, connections refused, and a server that stops answering
 * without closing anything (as one stopped with SIGSTOP, or whose host vanished, does).
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'pass' | 'refuse' | 'silent';

export interface TcpProxy {
  /** host:port to connect to instead of the server's. */
  readonly address: string;
  /**
   * pass: forward both ways. refuse: close new connections at once. silent: take new connections and
   * forward nothing either way, on new and open connections alike, until passing again.
   */
  setMode(mode: ProxyMode): void;
  /** The local ports of the connections to the server: how the server sees them (client_port). */
  serverSidePorts(): number[];
  /** Closes every connection open now, both sides (as a server restart does). */
  cutAll(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  const open = new Set<net.Socket>();
  const upstreams = new Set<net.Socket>();
  /** Connections taken while silent, connected onwards once passing again. */
  let held: net.Socket[] = [];
  const forward = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    open.add(upstream);
    upstreams.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', () => {
      open.delete(upstream);
      upstreams.delete(upstream);
      end();
    });
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  };
  const server = net.createServer({ pauseOnConnect: true }, (client) => {
    if (mode === 'refuse') {
      client.destroy();
      return;
    }
    open.add(client);
    client.on('close', () => open.delete(client));
    if (mode === 'silent') held.push(client);
    else forward(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: TcpProxy = {
    address: `127.0.0.1:${port}`,
    setMode(next) {
      mode = next;
      // Silent: nothing more is read from either side (what was sent waits in the kernel, as it
      // does for a stopped process); passing again delivers it.
      for (const socket of open) {
        if (next === 'silent') socket.pause();
        else socket.resume();
      }
      if (next !== 'silent') {
        for (const client of held) if (!client.destroyed) forward(client);
        held = [];
      }
    },
    serverSidePorts() {
      return [...upstreams].flatMap((socket) => (socket.localPort ? [socket.localPort] : []));
    },
    cutAll() {
      for (const socket of open) socket.destroy();
      open.clear();
      held = [];
    },
    async close() {
      proxy.cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
