/**
 * Where a webhook may be sent (docs/webhooks.md, "Safe by default"). An endpoint's URL is chosen by
 * whoever manages endpoints, and the server then sends requests to it: left unchecked, it could make
 * the server reach what only the server can reach (its own admin ports, a cloud's metadata service at
 * 169.254.169.254, the shop's private network), which is server-side request forgery. So, unless
 * WEBHOOK_ALLOW_PRIVATE_URLS allows them (the default outside production), a URL may not lead to
 * this machine, a private, shared, link-local or unique-local network, an unspecified or a
 * multicast address; and in production it must be https://.
 *
 * The name is checked when the endpoint is saved AND at every delivery, on the address actually
 * connected to: a name's DNS can change after it was saved (DNS rebinding), so the deliverer
 * resolves it, checks each address, and connects to the one it checked (http-post.ts), sending
 * the name as Host and in TLS's SNI.
 */
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

export interface UrlPolicy {
  allowPrivateUrls: boolean;
  httpsOnly: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a name to its addresses (node:dns by default; tests give their own). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

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
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind a translator (RFC 6052)
  ['fc00::', 7], // unique-local (RFC 4193)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, `::ffff:a00:1`) carries. */
function mappedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether `address` (an IP address) is one no webhook may reach unless allowed. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = mappedIpv4(address);
  if (mapped !== undefined) return FORBIDDEN.check(mapped, 'ipv4');
  return FORBIDDEN.check(address, 'ipv6');
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
