/**
 * The proxy's tunnels (tunnel.ts) at their edges: a CONNECT to Daraja's host written as a fully
 * qualified name (a trailing dot), a client that opens a tunnel, finishes its TLS handshake and
 * then sends nothing, and a client that speaks TLS straight to the port with no CONNECT, as axios
 * before 0.19 does (npm mpesa-node's 0.18; src/sdks/sdks.test.ts runs mpesa-node itself).
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
import { DIRECT_TLS_OFF, answerConnect } from './tunnel.ts';

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
    const certificate = await authority.certificatePem();
    // The proxy counts the tunnel's idle time from when it took the connection, before the
    // handshake: measured from before the tunnel is opened, a handshake slowed by a busy machine
    // (one took 60 ms in CI) does not eat into it.
    const started = Date.now();
    const secure = await openTunnel(port, certificate);
    const closed = new Promise<string>((resolve) => secure.once('close', () => resolve('closed')));
    const waited = new Promise<string>((resolve) => setTimeout(() => resolve('open'), 3000));
    expect(await Promise.race([closed, waited])).toBe('closed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});

/** A logger that keeps its warnings. */
function recording() {
  const warnings: string[] = [];
  const log = { warn: (line: string) => warnings.push(line), error() {} };
  return { warnings, log: log as unknown as FastifyBaseLogger };
}

/**
 * What axios 0.18 does with HTTPS_PROXY: TLS to the proxy's own port, naming Daraja's host in its
 * ClientHello (Node takes the name from the Host header), then the request with its absolute URL.
 */
function tlsToThePort(
  url: string,
  options: { servername?: string; ca?: string; request?: string },
): Promise<{ answer: string; error?: Error }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const secure = tls.connect({
      host: hostname,
      port: Number(port),
      servername: options.servername,
      ca: options.ca,
      ALPNProtocols: ['http/1.1'],
    });
    let answer = '';
    secure.on('secureConnect', () => secure.write(options.request ?? ''));
    secure.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
      if (/\r\n\r\n[\s\S]*\}$/.test(answer)) secure.end();
    });
    secure.on('error', (error) => resolve({ answer, error }));
    secure.on('close', () => resolve({ answer }));
  });
}

const TOKEN_REQUEST = (target: string) =>
  `GET ${target}/oauth/v1/generate?grant_type=client_credentials HTTP/1.1\r\n` +
  `Host: sandbox.safaricom.co.ke\r\nAuthorization: Basic ${Buffer.from('key:secret').toString('base64')}\r\n` +
  'Connection: close\r\n\r\n';

describe('a client that speaks TLS straight to the port (axios before 0.19)', () => {
  it('is answered as the Daraja host its ClientHello names, on the same port as plain HTTP', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-tunnel-'));
    sim = await startSimulator({ SIM_PROXY_CA_DIR: folder });
    const ca = await sim.authority!.certificatePem();
    for (const [servername, target] of [
      ['sandbox.safaricom.co.ke', 'https://sandbox.safaricom.co.ke'],
      ['api.safaricom.co.ke', ''],
    ] as const) {
      const { answer, error } = await tlsToThePort(sim.url, {
        servername,
        ca,
        request: TOKEN_REQUEST(target),
      });
      expect(error).toBeUndefined();
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(answer).toMatch(/"access_token":"[A-Za-z0-9]+"/);
    }
    // Plain HTTP on the same port, as before.
    const plain = await fetch(`${sim.url}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { Authorization: `Basic ${Buffer.from('key:secret').toString('base64')}` },
    });
    expect(plain.status).toBe(200);
    // The request log has what came over TLS.
    const logged = sim.log.list({ kind: 'request' });
    expect(
      logged.filter((entry) => 'path' in entry && entry.path.startsWith('/oauth/')),
    ).toHaveLength(3);
  });

  it('leaves HTTP as it was: a request in pieces is answered, a silent client holds no close', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-tunnel-'));
    sim = await startSimulator({ SIM_PROXY_CA_DIR: folder });
    const { port } = new URL(sim.url);
    // Its first byte alone, then the rest: the byte read to tell TLS from HTTP is not lost.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write('G');
        setImmediate(() =>
          socket.write('ET /_sim/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
        );
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // A client that connects and says nothing: the simulator still closes at once.
    const silent = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => silent.once('connect', resolve));
    const closed = sim.close().then(() => 'closed');
    const waited = new Promise((resolve) => setTimeout(() => resolve('still open'), 3000));
    expect(await Promise.race([closed, waited])).toBe('closed');
    sim = undefined;
    silent.destroy();
  });

  it('does not reach the control API that way', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-tunnel-'));
    sim = await startSimulator({ SIM_PROXY_CA_DIR: folder });
    const { answer } = await tlsToThePort(sim.url, {
      servername: 'sandbox.safaricom.co.ke',
      ca: await sim.authority!.certificatePem(),
      request:
        'GET /_sim/info HTTP/1.1\r\nHost: sandbox.safaricom.co.ke\r\nConnection: close\r\n\r\n',
    });
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
  });

  it('fails its handshake, saying why in the log, for another host, no host, or the proxy off', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-tunnel-'));
    const authority = new CertificateAuthority(folder);
    const { warnings, log } = recording();
    server = http.createServer((_request, response) => response.end('ok'));
    answerConnect(server, authority, log);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const ca = await authority.certificatePem();
    expect((await tlsToThePort(url, { servername: 'example.com', ca })).error).toBeDefined();
    expect((await tlsToThePort(url, { ca })).error).toBeDefined();
    expect(warnings).toEqual([
      expect.stringContaining(
        "straight to the simulator's port (no CONNECT), as axios before 0.19 does with HTTPS_PROXY, naming example.com",
      ),
      expect.stringContaining('naming no host (no SNI)'),
    ]);

    const off = recording();
    const plain = http.createServer((_request, response) => response.end('ok'));
    answerConnect(plain, undefined, off.log);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const offUrl = `http://127.0.0.1:${(plain.address() as net.AddressInfo).port}`;
    const refused = await tlsToThePort(offUrl, { servername: 'sandbox.safaricom.co.ke', ca });
    plain.close();
    expect(refused.error ?? refused.answer).toBeTruthy();
    expect(refused.answer).toBe('');
    expect(off.warnings).toEqual([DIRECT_TLS_OFF]);
  });

  it('that does not trust the authority is told in the log which file to trust', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-tunnel-'));
    const authority = new CertificateAuthority(folder);
    const { warnings, log } = recording();
    server = http.createServer((_request, response) => response.end('ok'));
    answerConnect(server, authority, log);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    await authority.load();
    const { error } = await tlsToThePort(url, { servername: 'sandbox.safaricom.co.ke' });
    expect(error?.message).toMatch(/certificate/);
    await expect
      .poll(() => warnings)
      .toEqual([expect.stringContaining(`does not trust ${authority.certificateFile}`)]);
  });
});
