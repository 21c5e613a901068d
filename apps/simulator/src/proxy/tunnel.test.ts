/**
 * The proxy's tunnels (tunnel.ts) at their edges: a CONNECT to Daraja's host written as a fully
 * qualified name (a trailing dot), and a client that opens a tunnel, finishes its TLS handshake and
 * then sends nothing.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Harness } from '../test/harness.ts';
import { connectRequest, exchange } from '../test/proxy-client.ts';
import { CertificateAuthority } from './authority.ts';
import { answerConnect } from './tunnel.ts';

let folder: string | undefined;
let sim: Harness | undefined;
let server: http.Server | undefined;
afterEach(async () => {
  await sim?.close();
  server?.closeAllConnections();
  server?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
  sim = server = folder = undefined;
});

describe('a CONNECT to Daraja’s host with a trailing dot', () => {
  it('is the same host: the tunnel opens', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-tunnel-'));
    sim = await startSimulator({ SIM_PROXY_CA_DIR: folder });
    const answer = await exchange(sim.url, connectRequest('sandbox.safaricom.co.ke.:443'));
    expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n/);
    const other = await exchange(sim.url, connectRequest('example.com.:443'));
    expect(other).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
  });
});

const quiet = { warn() {}, error() {} } as unknown as FastifyBaseLogger;

/** A client's tunnel through `port` to Daraja's sandbox, its TLS handshake done. */
async function openTunnel(port: number, ca: string): Promise<tls.TLSSocket> {
  const socket = net.connect(port, '127.0.0.1');
  socket.write(connectRequest('sandbox.safaricom.co.ke:443'));
  await new Promise<void>((resolve, reject) => {
    let text = '';
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      if (!text.endsWith('\r\n\r\n')) return;
      socket.off('data', read);
      if (text.startsWith('HTTP/1.1 200')) resolve();
      else reject(new Error(text));
    };
    socket.on('data', read);
  });
  const secure = tls.connect({ socket, servername: 'sandbox.safaricom.co.ke', ca });
  await new Promise((resolve) => secure.once('secureConnect', resolve));
  return secure;
}

describe('a tunnel that finished its TLS handshake and then sends nothing', () => {
  it('is closed once it has been idle for the tunnel’s idle time', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-tunnel-'));
    const authority = new CertificateAuthority(folder);
    server = http.createServer((_request, response) => response.end('ok'));
    answerConnect(server, authority, quiet, 300);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const secure = await openTunnel(port, await authority.certificatePem());
    const started = Date.now();
    const closed = new Promise<string>((resolve) => secure.once('close', () => resolve('closed')));
    const waited = new Promise<string>((resolve) => setTimeout(() => resolve('open'), 3000));
    expect(await Promise.race([closed, waited])).toBe('closed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});
