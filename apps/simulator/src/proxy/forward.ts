/**
 * What reaches the simulator as a proxy, and the other way a client uses an HTTP proxy: sending
 * its request to the proxy whole, with the absolute URL on the request line
 * (`POST https://sandbox.safaricom.co.ke/mpesa/… HTTP/1.1`, RFC 9112 §3.2.2), instead of asking
 * for a tunnel (tunnel.ts). axios, which many Node SDKs use, did so for https URLs until 2026
 * (axios/axios#4531 and #6320), in plain text, so there is no TLS to trust. For Daraja's two hosts
 * the simulator serves the path as its own; any other absolute URL is refused.
 *
 * Either way, only Daraja's routes are served to what came through the proxy: the control API
 * (/_sim/) and the virtual phone answer at the simulator's own address only.
 */
import type http from 'node:http';
import type net from 'node:net';
import type { onRequestAsyncHookHandler } from 'fastify';
import { ERRORS } from '../catalogue.ts';
import { darajaError } from '../daraja/envelope.ts';
import { DARAJA_HOSTS, isDarajaHost } from './authority.ts';

/**
 * The tunnels' decrypted connections and the requests sent whole: what came through the proxy,
 * each with the simulator's address as its client reached it (`addressOf`), '' when unknown.
 */
export const PROXIED = new WeakMap<object, string>();

/**
 * The address a client reached the simulator at, as its HTTPS_PROXY names it
 * (`http://127.0.0.1:3001`, `http://[::1]:3001`): where the control API answers it too.
 */
export function addressOf(socket: net.Socket): string {
  const host = socket.localAddress?.replace(/^::ffff:(?=\d+\.)/, '');
  const port = socket.localPort;
  if (!host || !port) return '';
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

const HOSTS = DARAJA_HOSTS.map((host) => `${host}:443`).join(' and ');

export const notADarajaHost = (target: string) =>
  `The simulator's proxy answers only for ${HOSTS}, which it serves itself; it is not an open proxy, so ${target} is refused. Keep other hosts out of the proxy with NO_PROXY.`;
export const PROXY_OFF =
  "The simulator's proxy mode is off (SIM_PROXY=false): it serves no host. Turn it on with --proxy, or give your client the simulator's address as Daraja's.";
/** `address`: the simulator's own, as the client reached it ('' when unknown: not named). */
export const notThroughTheProxyMessage = (address: string) =>
  `The control API (/_sim/) and the virtual phone are not served through the proxy: use them at the simulator’s own address${address ? ` (${address})` : ''}, without the proxy.`;

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The path to route a request by (Fastify's `rewriteUrl`): for `https://` one of Daraja's hosts
 * (on port 443) the path and query, marking the request as proxied; otherwise the URL as it came.
 */
export function forwardedPath(request: http.IncomingMessage, proxyOn: boolean): string {
  const url = request.url ?? '/';
  if (!proxyOn || !ABSOLUTE.test(url)) return url;
  const target = URL.parse(url);
  if (target?.protocol !== 'https:' || !isDarajaHost(target.hostname)) return url;
  if (target.port !== '' || target.username !== '' || target.password !== '') return url;
  PROXIED.set(request, addressOf(request.socket));
  return `${target.pathname}${target.search}`;
}

/**
 * Refuses an absolute URL that `forwardedPath` left as it was: another host, or the proxy off.
 * For every route, before anything else looks at the request.
 */
export function refuseOtherHosts(proxyOn: boolean): onRequestAsyncHookHandler {
  return async (request, reply) => {
    const url = request.raw.url ?? '';
    if (!ABSOLUTE.test(url)) return;
    const target = URL.parse(url);
    const port = target?.port || (target?.protocol === 'https:' ? '443' : '80');
    const named = target ? `${target.hostname}:${port}` : url;
    return reply
      .code(403)
      .type('text/plain; charset=utf-8')
      .send(`${proxyOn ? notADarajaHost(named) : PROXY_OFF}\n`);
  };
}

/**
 * Refuses what came through the proxy, for the control API's and the virtual phone's scope: the
 * control API with a sentence, anything else as Daraja answers a path it does not have.
 */
export const notThroughTheProxy: onRequestAsyncHookHandler = async (request, reply) => {
  const reached = PROXIED.get(request.raw) ?? PROXIED.get(request.raw.socket);
  if (reached === undefined) return;
  if (request.url.startsWith('/_sim')) {
    return reply.code(403).send({ error: notThroughTheProxyMessage(reached) });
  }
  return reply.code(404).send(darajaError(ERRORS.notFound, ''));
};
