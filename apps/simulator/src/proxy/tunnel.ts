/**
 * The proxy mode (SIM_PROXY; docs/daraja-protocol.md §1.1): SDKs that hard-code Safaricom's hosts
 * reach the simulator unchanged. A client given HTTPS_PROXY=http://127.0.0.1:3001 asks the
 * simulator, with HTTP's CONNECT, for a tunnel to `sandbox.safaricom.co.ke:443` or
 * `api.safaricom.co.ke:443`. The simulator does not go there: it ends the tunnel itself, answers
 * TLS with a certificate for that host from its own authority (authority.ts), which the client has
 * been told to trust, and hands the decrypted connection to its own HTTP server, where Daraja's
 * routes answer as they do on the plain port.
 *
 * It is not an open proxy: any other host or port is refused with a 403 and a sentence. And only
 * Daraja's routes are served through a tunnel (forward.ts).
 */
import type http from 'node:http';
import type net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import {
  DARAJA_HOSTS,
  isDarajaHost,
  type CertificateAuthority,
  type DarajaHost,
} from './authority.ts';
import { DEFAULT_CA_DIR } from '../config.ts';
import { PROXIED, PROXY_OFF, addressOf, notADarajaHost } from './forward.ts';

/** How a client trusts the authority, by language (README: "Any SDK as it is"). */
const TRUST =
  'Node: NODE_EXTRA_CA_CERTS, and NODE_USE_ENV_PROXY=1 for its own fetch and https; ' +
  'Python: REQUESTS_CA_BUNDLE or SSL_CERT_FILE; PHP: CURLOPT_CAINFO';

/**
 * `host:port` of a CONNECT request (the authority form, RFC 9110 §9.3.6), the host in lower case
 * and without the trailing dot of a fully qualified name (`sandbox.safaricom.co.ke.`: the same host).
 */
function targetOf(url: string | undefined): { host: string; port: string } | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]]+?)\.?:([0-9]+)$/.exec(url ?? '');
  return match ? { host: match[1]!.toLowerCase(), port: match[2]! } : undefined;
}

/**
 * How long a tunnel may stay silent before its first request (its TLS handshake included): two
 * minutes, far more than any client takes, so that a client that opens a tunnel and sends nothing
 * does not hold a connection forever. Any traffic starts the wait again; once a request has been
 * answered, the HTTP server's keep-alive timeout replaces it, as on the plain port.
 */
export const TUNNEL_IDLE_MS = 120_000;

/** An HTTP answer on a socket that HTTP no longer reads, and the end of it. */
function answer(socket: Duplex, status: string, message: string): void {
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export interface Proxy {
  /** Ends every tunnel: for the server's close, which would otherwise wait for them. */
  close(): void;
}

/**
 * Answers CONNECT on the simulator's HTTP server. Without an authority (SIM_PROXY=false), every
 * CONNECT is refused, saying that the proxy is off. `idleMs`: TUNNEL_IDLE_MS but in tests.
 */
export function answerConnect(
  server: http.Server,
  authority: CertificateAuthority | undefined,
  log: FastifyBaseLogger,
  idleMs = TUNNEL_IDLE_MS,
): Proxy {
  const open = new Set<Duplex>();
  server.on('connect', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    // A client that goes away mid-tunnel is no error of the simulator's.
    socket.on('error', () => socket.destroy());
    if (!authority) return answer(socket, '403 Forbidden', PROXY_OFF);
    const target = targetOf(request.url);
    if (!target || target.port !== '443' || !isDarajaHost(target.host)) {
      const refusal = notADarajaHost(request.url ?? '');
      log.warn(refusal);
      return answer(socket, '403 Forbidden', refusal);
    }
    const { host } = target;
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    authority.secureContext(host).then(
      (secureContext) => {
        if (socket.destroyed) return;
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        // What the client sent after its CONNECT without waiting (its TLS hello, at most).
        if (head.length > 0) socket.unshift(head);
        const tunnel = { host, caFile: authority.certificateFile, idleMs };
        serveTls(server, socket as net.Socket, secureContext, tunnel, log);
      },
      (error: Error) => {
        log.error(`The proxy cannot answer for ${host}: ${error.message}`);
        answer(
          socket,
          '502 Bad Gateway',
          `The simulator could not make its certificate for ${host}: ${error.message}`,
        );
      },
    );
  });
  return {
    close() {
      for (const socket of open) socket.destroy();
    },
  };
}

/** OpenSSL's words ("tlsv1 alert unknown ca") without its file and line. */
const reason = (error: Error) => (error as { reason?: string }).reason ?? error.message.trim();

/** TLS over the tunnel, as `host`, and the decrypted connection to the HTTP server. */
function serveTls(
  server: http.Server,
  socket: net.Socket,
  secureContext: tls.SecureContext,
  { host, caFile, idleMs }: { host: DarajaHost; caFile: string; idleMs: number },
  log: FastifyBaseLogger,
): void {
  const secure = new tls.TLSSocket(socket, {
    isServer: true,
    secureContext,
    // HTTP/1.1: the server speaks no other.
    ALPNProtocols: ['http/1.1'],
  });
  PROXIED.set(secure, addressOf(socket));
  // The HTTP server sets its own timeouts on the connection once a request comes (keep-alive).
  secure.setTimeout(idleMs, () => secure.destroy());
  let established = false;
  secure.once('secure', () => (established = true));
  secure.on('error', (error: Error) => {
    // Most often the client does not trust the authority: say what to give it.
    if (!established) {
      log.warn(
        `A client's TLS through the proxy to ${host} failed (${reason(error)}): does it trust ${caFile}? Give it to the client (${TRUST}).`,
      );
    }
    secure.destroy();
  });
  server.emit('connection', secure);
}

/** What start-up says of the proxy mode: how to use it, in a line. */
export function proxyBanner(address: string, caFile: string): string {
  return (
    `Proxy mode: a client of https://${DARAJA_HOSTS.join(' or https://')} reaches this ` +
    `simulator unchanged with HTTPS_PROXY=${address} and this certificate authority trusted: ` +
    `${caFile} (${TRUST}). --no-proxy turns it off.`
  );
}

/** The proxy mode in `--help`, before the options. */
export function proxyHelp(): string[] {
  return [
    `Proxy mode (--no-proxy turns it off): a client hard-coded to https://${DARAJA_HOSTS[0]}`,
    `or https://${DARAJA_HOSTS[1]} reaches the simulator unchanged, given HTTPS_PROXY set to`,
    "the simulator's address (http://127.0.0.1:3001) and the simulator's certificate authority:",
    '  Node     NODE_EXTRA_CA_CERTS=<file>, and NODE_USE_ENV_PROXY=1 for its own fetch and https',
    '  Python   REQUESTS_CA_BUNDLE=<file> (requests) or SSL_CERT_FILE=<file>',
    '  PHP      curl_setopt($curl, CURLOPT_CAINFO, <file>), or curl.cainfo in php.ini',
    "The authority is made at the first start and kept in --proxy-ca-dir, else beside --state's",
    `file, else in ${DEFAULT_CA_DIR}; start-up names its file; GET /_sim/proxy/ca.pem serves it.`,
  ];
}
