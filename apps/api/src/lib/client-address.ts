/**
 * The client's address, as every limit and check uses it. `request.ip` is what Fastify derives from
 * the socket and, behind trusted proxies (TRUST_PROXY), from X-Forwarded-For; a header can still
 * carry anything, so a value that is not an IP address falls back to the socket's own address.
 */
import { BlockList, isIP, isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { MAX_LENGTH } from './stored-lengths.ts';

/** "::ffff:196.201.214.200" and "196.201.214.200" are the same IPv4 client. */
export function plainIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/** An IP address short enough to store ("fe80::1%<zone>" can be any length). */
function storableIp(text: string | undefined): string | undefined {
  const ip = plainIp(text ?? '');
  return isIP(ip) && ip.length <= MAX_LENGTH.ipAddress ? ip : undefined;
}

/**
 * Never undefined: once a socket has closed, Node no longer knows its peer, so a request whose
 * client hung up mid-body (a malformed chunk, a timeout) is "unknown" rather than an error.
 */
export function clientAddress(request: Pick<FastifyRequest, 'ip' | 'socket'>): string {
  return storableIp(request.ip) ?? storableIp(request.socket?.remoteAddress) ?? 'unknown';
}

/**
 * Whether an address is on a list, however either is spelt ("::1" and "0:0:0:0:0:0:0:1",
 * "::ffff:196.201.214.200" and "196.201.214.200", upper or lower case).
 */
export function addressList(addresses: readonly string[]): (ip: string) => boolean {
  const list = new BlockList();
  for (const address of addresses) list.addAddress(address, isIPv6(address) ? 'ipv6' : 'ipv4');
  return (ip) => isIP(ip) !== 0 && list.check(ip, isIPv6(ip) ? 'ipv6' : 'ipv4');
}

/** The eight groups of an IPv6 address, written out in full ("::1" → 0,0,0,0,0,0,0,1). */
function ipv6Groups(ip: string): string[] {
  const groups = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const [head = '', tail] = ip.toLowerCase().split('::');
  if (tail === undefined) return groups(head);
  const front = groups(head);
  const back = groups(tail);
  return [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
}

/**
 * What a per-address limit counts: an IPv4 address, or an IPv6 client's /64, since one subscriber
 * is usually given a whole /64 and could otherwise take a new address for every request.
 */
export function limitKeyFor(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const prefix = ipv6Groups(ip)
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''));
  return `${prefix.join(':')}::/64`;
}
