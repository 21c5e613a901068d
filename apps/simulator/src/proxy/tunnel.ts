/**
 * The proxy mode (SIM_PROXY; docs/daraja-protocol.md §1.1): SDKs that hard-code Safaricom's hosts
 * reach the simulator unchanged. A client given HTTPS_PROXY=http://127.0.0.1:3001 asks the
 * simulator, with HTTP's CONNECT, for a tunnel to `sandbox.safaricom.co.ke:443` or
 * `api.safaricom.co.ke:443`. The simulator does not go there: it ends the tunnel itself, answers
 * TLS with a certificate for that host from its own authority (authority.ts), which the client has
 * been told to trust, and hands the decrypted connection to its own HTTP server, where Daraja's
 * routes answer as they do on the plain port.
 *
 * A client may also speak TLS straight to the proxy's port, with no CONNECT: axios before 0.19
 * (npm mpesa-node 0.1.3, Safaricom's own Node library, uses 0.18) sends an https URL to the proxy
 * over TLS, as if the proxy were the host. The simulator reads the first byte of each connection:
 * a TLS handshake record (0x16) is answered as the host its ClientHello names (SNI, which Node sets
 * from the Host header), one of Daraja's two, with the same authority; anything else is HTTP.
 *
 * It is not an open proxy: any other host or port is refused with a 403 and a sentence (over TLS,
 * the handshake fails and the log says why). And only Daraja's routes are served through a tunnel
 * (forward.ts).
 */
import type http from 'node:http';
import net from 'node:net';
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
  'Python: REQUESTS_CA_BUNDLE for requests, SSL_CERT_FILE for httpx and urllib; PHP: CURLOPT_CAINFO';

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
  /** Ends the socket on close() until it is closed, or until the returned function is called. */
  const track = (socket: Duplex) => {
    const forget = () => open.delete(socket);
    open.add(socket);
    socket.once('close', forget);
    return () => {
      forget();
      socket.off('close', forget);
    };
  };
  answerTlsOnThePort(server, authority, log, idleMs, track);
  server.on('request', (request: http.IncomingMessage) => REQUESTED.add(request.socket));
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
    track(socket);
    authority.secureContext(host).then(
      (secureContext) => {
        if (socket.destroyed) return;
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        // What the client sent after its CONNECT without waiting (its TLS hello, at most).
        if (head.length > 0) socket.unshift(head);
        const secure = new tls.TLSSocket(socket as net.Socket, {
          isServer: true,
          secureContext,
          // HTTP/1.1: the server speaks no other.
          ALPNProtocols: ['http/1.1'],
        });
        const tunnel = { host: () => host, caFile: authority.certificateFile, idleMs };
        serveTls(server, socket as net.Socket, secure, tunnel, log);
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

/** The connections a request came on: a TLS connection closed without one may not trust us. */
const REQUESTED = new WeakSet<object>();

/** OpenSSL's words ("tlsv1 alert unknown ca") without its file and line. */
const reason = (error: Error) => (error as { reason?: string }).reason ?? error.message.trim();

/**
 * TLS over a tunnel or straight on the port (`secure`, the server's side of it, over `socket`), as
 * the Daraja host `host()` names once the client has said it, and the decrypted connection to the
 * HTTP server. `host()` is undefined when there is no Daraja host to trust (the client named none,
 * or another, which has been said in the log already).
 */
function serveTls(
  server: http.Server,
  socket: net.Socket,
  secure: tls.TLSSocket,
  { host, caFile, idleMs }: { host: () => DarajaHost | undefined; caFile: string; idleMs: number },
  log: FastifyBaseLogger,
): void {
  PROXIED.set(secure, addressOf(socket));
  // The HTTP server sets its own timeouts on the connection once a request comes (keep-alive).
  secure.setTimeout(idleMs, () => secure.destroy());
  let established = false;
  let said = false;
  secure.once('secure', () => (established = true));
  secure.on('error', (error: Error) => {
    // Most often the client does not trust the authority: say what to give it.
    const named = host();
    if (!established && named && !said) {
      said = true;
      log.warn(
        `A client's TLS through the proxy to ${named} failed (${reason(error)}): does it trust ${caFile}? Give it to the client (${TRUST}).`,
      );
    }
    secure.destroy();
  });
  // A Node client checks the certificate at the end of the handshake, and one that does not trust
  // it just closes, with no TLS alert: no error here, and no request.
  secure.once('close', () => {
    const named = host();
    if (said || !named || REQUESTED.has(secure)) return;
    const how = established ? 'closed without a request' : 'was closed during the handshake';
    log.warn(
      `A client's TLS through the proxy to ${named} ${how}: if it reported a certificate it cannot verify ("unable to verify the first certificate"), it does not trust ${caFile}. Give it to the client (${TRUST}).`,
    );
  });
  server.emit('connection', secure);
}

/** TLS's first byte: a handshake record, the ClientHello (RFC 8446 §5.1, ContentType 22). */
const TLS_HANDSHAKE = 0x16;

/**
 * A client that speaks TLS straight to the proxy's port (axios before 0.19) instead of asking for
 * a tunnel: said in the log when it names no Daraja host.
 */
const directTls = (named: string) =>
  `A client spoke TLS straight to the simulator's port (no CONNECT), as axios before 0.19 does with HTTPS_PROXY, ${named}: the proxy answers only for ${DARAJA_HOSTS.join(' and ')}.`;
export const DIRECT_TLS_OFF =
  "A client spoke TLS straight to the simulator's port, as axios before 0.19 does with HTTPS_PROXY, but the proxy mode is off (SIM_PROXY=false): turn it on with --proxy, or give the client the simulator's address as Daraja's.";

/**
 * Reads the first byte of each connection the HTTP server accepts, before HTTP does: a TLS
 * handshake is answered here (directTls), anything else goes to the server's own listeners as it
 * came, the byte put back. The decrypted connections serveTls hands on, and any stream that is
 * not a plain socket, go to them at once.
 */
function answerTlsOnThePort(
  server: http.Server,
  authority: CertificateAuthority | undefined,
  log: FastifyBaseLogger,
  idleMs: number,
  track: (socket: Duplex) => () => void,
): void {
  const listeners = server.listeners('connection') as ((socket: Duplex) => void)[];
  server.removeAllListeners('connection');
  const toHttp = (socket: Duplex) => {
    for (const listener of listeners) listener.call(server, socket);
  };
  server.on('connection', (socket: Duplex) => {
    if (!(socket instanceof net.Socket) || socket instanceof tls.TLSSocket) return toHttp(socket);
    // Until its first byte: a client that connects and sends nothing is closed after the tunnels'
    // idle time (and by close(), which the HTTP server's own close does not reach yet), and one
    // that goes away is no error of the simulator's.
    const gone = () => socket.destroy();
    socket.on('error', gone);
    socket.setTimeout(idleMs, gone);
    const untrack = track(socket);
    socket.once('readable', () => {
      const first = socket.read(1) as Buffer | null;
      if (first === null) return socket.destroy(); // closed before it said anything
      socket.unshift(first);
      socket.setTimeout(0);
      socket.off('timeout', gone);
      if (first[0] !== TLS_HANDSHAKE) {
        // HTTP's: as if nothing had come between, its own timeouts and close included.
        socket.off('error', gone);
        untrack();
        return toHttp(socket);
      }
      if (!authority) {
        log.warn(DIRECT_TLS_OFF);
        return socket.destroy();
      }
      serveDirectTls(server, socket, authority, log, idleMs);
    });
  });
}

/** TLS on the port itself, as the Daraja host the ClientHello names (SNI). */
function serveDirectTls(
  server: http.Server,
  socket: net.Socket,
  authority: CertificateAuthority,
  log: FastifyBaseLogger,
  idleMs: number,
): void {
  let asked: string | undefined;
  let host: DarajaHost | undefined;
  const secure = new tls.TLSSocket(socket, {
    isServer: true,
    ALPNProtocols: ['http/1.1'],
    SNICallback: (servername, callback) => {
      asked = servername;
      const named = servername.toLowerCase().replace(/\.$/, '');
      if (!isDarajaHost(named)) {
        log.warn(directTls(`naming ${servername}`));
        return callback(new Error(`${servername} is not one of Daraja's hosts`), undefined);
      }
      host = named;
      authority.secureContext(named).then(
        (context) => callback(null, context),
        (error: Error) => {
          log.error(`The proxy cannot answer for ${named}: ${error.message}`);
          callback(error, undefined);
        },
      );
    },
  });
  // Without a name (SNI), there is no host to answer as: the handshake fails.
  secure.once('error', () => {
    if (asked === undefined) log.warn(directTls('naming no host (no SNI)'));
  });
  serveTls(
    server,
    socket,
    secure,
    { host: () => host, caFile: authority.certificateFile, idleMs },
    log,
  );
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
    '  Python   REQUESTS_CA_BUNDLE=<file> (requests), SSL_CERT_FILE=<file> (httpx, urllib)',
    '  PHP      curl_setopt($curl, CURLOPT_CAINFO, <file>), or curl.cainfo in php.ini',
    "The authority is made at the first start and kept in --proxy-ca-dir, else beside --state's",
    `file, else in ${DEFAULT_CA_DIR}; start-up names its file; GET /_sim/proxy/ca.pem serves it.`,
  ];
}
