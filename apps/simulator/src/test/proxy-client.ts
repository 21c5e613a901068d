/** Test harness for the proxy mode (proxy/): clients that know only Safaricom's hosts. */
import type { X509Certificate } from 'node:crypto';
import https from 'node:https';
import net from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { JsonAnswer } from './harness.ts';

export const SANDBOX = 'https://sandbox.safaricom.co.ke';
export const PRODUCTION = 'https://api.safaricom.co.ke';

/**
 * Node's own HTTPS client told to use `proxy` (as HTTPS_PROXY would) and to trust `ca`, asking
 * `url` (on one of Safaricom's hosts) as it would ask Daraja.
 */
export function viaProxy(
  proxy: string,
  ca: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<JsonAnswer & { peer: X509Certificate | undefined }> {
  const agent = new https.Agent({ proxyEnv: { HTTPS_PROXY: proxy }, ca });
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        agent,
        method: init.method ?? 'GET',
        headers: { ...init.headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      },
      (response) => {
        const peer = (response.socket as TLSSocket).getPeerX509Certificate();
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          agent.destroy();
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode ?? 0, body: parsed, peer });
        });
      },
    );
    request.on('error', (error) => {
      agent.destroy();
      reject(error);
    });
    request.end(body);
  });
}

/** Sends `text` as it is to the simulator's port and returns all it answers, until it closes. */
export function exchange(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    // A tunnel that was opened stays open: what came within a moment is the answer.
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(answer);
    });
  });
}

/** A CONNECT request for `target` (host:port), as a proxy client sends it. */
export const connectRequest = (target: string) =>
  `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`;
