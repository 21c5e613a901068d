/**
 * Where a webhook may be sent (docs/webhooks.md, "Safe by default"). An endpoint's URL is chosen by
 * whoever manages endpoints, and the server then sends requests to it: left unchecked, it could make
 * the server reach what only the server can reach (its own admin ports, a cloud's metadata service at
 * 169.254.169.254, the shop's private network), which is server-side request forgery. So, unless
 * WEBHOOK_ALLOW_PRIVATE_URLS allows them (the default with the simulator only), a URL may not lead to
 * this machine, a private, shared, link-local or unique-local network, an unspecified or a
 * multicast address; and in production it must be https://.
 *
 * An IPv6 address that carries an IPv4 one (IPv4-mapped or -compatible, 6to4, Teredo, NAT64) is
 * judged as that IPv4 address, whatever its spelling: it is read into its 16 bytes, not matched.
 *
 * The name is checked when the endpoint is saved AND at every delivery, on the address actually
 * connected to: a name's DNS can change after it was saved (DNS rebinding), so the deliverer
 * resolves it, checks each address, and connects to the one it checked (http-post.ts), sending
 * the name as Host and in TLS's SNI.
 */
import { BlockList, isIP } from 'node:net';
import { Resolver } from 'node:dns/promises';

export interface UrlPolicy {
  allowPrivateUrls: boolean;
  httpsOnly: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a name to its addresses (systemResolve unless a test gives its own). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * Asks the DNS servers (c-ares, as node:dns's Resolver does), each query given up after 2 s and
 * tried twice. Not `dns.lookup`: it waits in libuv's pool of four threads, which the password
 * hashes of sign-in share, so endpoints whose nameserver answers slowly (an attacker's) would hold
 * up every other endpoint's deliveries and every sign-in. So a name known only to /etc/hosts is
 * not found, but for `localhost` and its subdomains (RFC 6761), which are this machine.
 */
const resolver = new Resolver({ timeout: 2000, tries: 2 });

export const systemResolve: Resolve = async (hostname) => {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost'))
    return [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
  const found: ResolvedAddress[] = [
    ...(v4.status === 'fulfilled'
      ? v4.value.map((address) => ({ address, family: 4 as const }))
      : []),
    ...(v6.status === 'fulfilled'
      ? v6.value.map((address) => ({ address, family: 6 as const }))
      : []),
  ];
  if (found.length === 0 && v4.status === 'rejected') throw v4.reason;
  return found;
};

/** The networks no webhook may reach unless allowed, by RFC. */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", the unspecified address (RFC 1122)
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared, carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, and cloud metadata services (RFC 3927)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (RFC 6890)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fec0::', 10], // site-local, deprecated but still routed inside some networks (RFC 3879)
  ['fc00::', 7], // unique-local (RFC 4193)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address in any spelling (compressed, dotted tail, zone), or undefined. */
export function ipv6Bytes(address: string): Uint8Array | undefined {
  const text = address.replace(/%.*$/, '');
  if (isIP(text) !== 6) return undefined;
  const words = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const gap = text.indexOf('::');
  const head = words(gap === -1 ? text : text.slice(0, gap));
  const tail = gap === -1 ? [] : words(text.slice(gap + 2));
  const all =
    gap === -1 ? head : [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  if (all.length !== 8) return undefined;
  const bytes = new Uint8Array(16);
  all.forEach((word, i) => {
    bytes[2 * i] = word >> 8;
    bytes[2 * i + 1] = word & 255;
  });
  return bytes;
}

const zero = (bytes: Uint8Array, from: number, to: number) =>
  bytes.subarray(from, to).every((byte) => byte === 0);
const dotted = (bytes: Uint8Array | number[]) => Array.from(bytes).join('.');

/**
 * The IPv4 address an IPv6 address leads to, where it embeds one: a packet to it reaches that IPv4
 * address (through the host's own stack, a 6to4 or Teredo relay, or a NAT64 translator), so it is
 * judged as that address. `null` for an address in the local-use NAT64 prefix whose IPv4 cannot be
 * told (the operator picks where it sits), which is refused; undefined for an ordinary IPv6 address.
 */
export function embeddedIpv4(bytes: Uint8Array): string | null | undefined {
  const last = bytes.subarray(12, 16);
  // IPv4-compatible ::/96 (:: and ::1 included, as 0.0.0.0 and 0.0.0.1, both refused),
  // IPv4-mapped ::ffff:0:0/96 and SIIT's IPv4-translated ::ffff:0:0:0/96.
  if (
    zero(bytes, 0, 10) &&
    ((bytes[10] === 0 && bytes[11] === 0) || (bytes[10] === 255 && bytes[11] === 255))
  )
    return dotted(last);
  if (zero(bytes, 0, 8) && bytes[8] === 255 && bytes[9] === 255 && zero(bytes, 10, 12))
    return dotted(last);
  const first = (bytes[0]! << 8) | bytes[1]!;
  const second = (bytes[2]! << 8) | bytes[3]!;
  // 6to4 2002::/16 (RFC 3056): the relay's IPv4 in the next 32 bits.
  if (first === 0x2002) return dotted(bytes.subarray(2, 6));
  // Teredo 2001::/32 (RFC 4380): the client's IPv4 is the last 32 bits, each bit inverted.
  if (first === 0x2001 && second === 0) return dotted(Array.from(last, (byte) => byte ^ 255));
  if (first === 0x64 && second === 0xff9b) {
    // NAT64's well-known prefix 64:ff9b::/96 (RFC 6052).
    if (zero(bytes, 4, 12)) return dotted(last);
    // The local-use 64:ff9b:1::/48 (RFC 8215): judged as the /96 form when it is one; anywhere
    // else in it the IPv4 may sit in several places, so the address is refused.
    if (bytes[4] === 0 && bytes[5] === 1) return zero(bytes, 6, 12) ? dotted(last) : null;
  }
  return undefined;
}

/** Whether `address` (an IP address) is one no webhook may reach unless allowed. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  const bytes = ipv6Bytes(address);
  if (!bytes) return true;
  const inside = embeddedIpv4(bytes);
  if (inside === null) return true;
  if (inside !== undefined) return FORBIDDEN.check(inside, 'ipv4');
  return FORBIDDEN.check(address.replace(/%.*$/, ''), 'ipv6');
}

/** Why a webhook may not go somewhere: the words the owner reads. */
export class UrlRefused extends Error {
  override name = 'UrlRefused';
}

/** The host of a URL as an address or a name, without an IPv6 literal's brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The URL, read and held to the policy's form: http(s), https in production, no password in it. */
export function parseWebhookUrl(text: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UrlRefused(
      'The URL is not valid: write it in full, such as https://shop.example/mpesa-events.',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UrlRefused('The URL must begin with https:// (or http:// outside production).');
  if (policy.httpsOnly && url.protocol !== 'https:')
    throw new UrlRefused('The URL must begin with https:// in production: events carry payments.');
  if (url.username !== '' || url.password !== '')
    throw new UrlRefused(
      'The URL must not carry a name or password: the signature proves each event is ours.',
    );
  return url;
}

const privateRefusal = (host: string, address: string) =>
  new UrlRefused(
    host === address
      ? `The address ${address} is on this machine or a private network, where webhooks are not sent (WEBHOOK_ALLOW_PRIVATE_URLS).`
      : `${host} leads to ${address}, on this machine or a private network, where webhooks are not sent (WEBHOOK_ALLOW_PRIVATE_URLS).`,
  );

/**
 * The address to connect to for `host`, checked: an address given as is, or the first of a name's
 * addresses the policy allows. Refused (UrlRefused) when none is allowed or the name has none.
 */
export async function allowedAddress(
  host: string,
  policy: UrlPolicy,
  resolve: Resolve,
): Promise<ResolvedAddress> {
  const family = isIP(host);
  if (family !== 0) {
    if (!policy.allowPrivateUrls && isForbiddenAddress(host)) throw privateRefusal(host, host);
    return { address: host, family: family === 6 ? 6 : 4 };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new UrlRefused(`${host} could not be found (DNS): check the URL.`);
  }
  if (addresses.length === 0)
    throw new UrlRefused(`${host} could not be found (DNS): check the URL.`);
  if (policy.allowPrivateUrls) return addresses[0]!;
  // Every address of the name must be allowed: one private among public ones is a rebinding trap.
  const forbidden = addresses.find((each) => isForbiddenAddress(each.address));
  if (forbidden) throw privateRefusal(host, forbidden.address);
  return addresses[0]!;
}

/** Checks a URL as the endpoint is saved: its form, then (unless allowed) where its name leads. */
export async function checkWebhookUrl(
  text: string,
  policy: UrlPolicy,
  resolve: Resolve,
): Promise<URL> {
  const url = parseWebhookUrl(text, policy);
  // Allowed anywhere, there is nothing to check: a name not found yet is tried at each delivery.
  if (!policy.allowPrivateUrls) await allowedAddress(hostOf(url), policy, resolve);
  return url;
}
