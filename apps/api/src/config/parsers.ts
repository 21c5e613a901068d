/** How one setting's text is read: numbers with their bounds, and the settings that are lists. */
import { z } from 'zod';

/** Up to 30 days: longer is a mistake, and far longer overflows dates and timers. */
export const seconds = (fallback: number, min = 0) =>
  z.coerce
    .number()
    .int()
    .min(min)
    .max(30 * 86_400)
    .default(fallback);
export const count = (fallback: number) =>
  z.coerce.number().int().min(0).max(1_000_000).default(fallback);
/** A connection timeout: never 0, which Node reads as "no limit at all". */
export const milliseconds = (fallback: number) =>
  z.coerce.number().int().min(100).max(600_000).default(fallback);
export const port = (fallback: number) =>
  z.coerce.number().int().min(0).max(65535).default(fallback);
export const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();
/** A password: blank (or only spaces) is unset, anything else is kept exactly, spaces included. */
export const optionalSecret = z
  .string()
  .transform((value) => (value.trim() === '' ? undefined : value))
  .optional();

/**
 * The shortest SecurityCredential taken: an RSA encryption under Safaricom's certificate is as long
 * as its key, 344 base64 characters for a 2048-bit one (docs/daraja-protocol.md §M2.1); anything under
 * 64 is a password or a placeholder pasted in its place.
 */
const MIN_SECURITY_CREDENTIAL_LENGTH = 64;
export const securityCredential = z
  .string()
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be the base64 SecurityCredential the Daraja portal made')
  .min(
    MIN_SECURITY_CREDENTIAL_LENGTH,
    `is too short to be a SecurityCredential (the Daraja portal makes one of 344 characters from a 2048-bit certificate; at least ${MIN_SECURITY_CREDENTIAL_LENGTH} are needed): give the one the portal made, or MPESA_INITIATOR_PASSWORD and MPESA_CERTIFICATE_PATH to make it from`,
  )
  .max(2048);

/** The longest PHONE_RETENTION_DAYS: ten years; a longer one is a mistake. */
export const MAX_RETENTION_DAYS = 3650;

/**
 * PHONE_RETENTION_DAYS: unset or empty (off), or a whole number of days from 1 to 3650. Written
 * out rather than coerced: "0" (which could be read as "keep nothing" or "off"), "30d" or "1.5"
 * are refused, never guessed at.
 */
export function retentionDays(value: string | undefined, ctx: z.RefinementCtx): number | undefined {
  if (value === undefined || value === '') return undefined;
  const days = /^[0-9]{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!(days >= 1 && days <= MAX_RETENTION_DAYS)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or unset to keep phone numbers`,
    });
    return z.NEVER;
  }
  return days;
}

const PROXY_ADDRESS = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);
/**
 * The widest proxy range taken: a wider one (a /0 above all, which the proxy-address parser cannot
 * even read) trusts clients as proxies, as `true` does.
 */
const MIN_PROXY_PREFIX = { ipv4: 8, ipv6: 16 } as const;
function tooWide(entry: string): boolean {
  const [address = '', prefix] = entry.split('/');
  if (prefix === undefined) return false;
  return Number(prefix) < MIN_PROXY_PREFIX[address.includes(':') ? 'ipv6' : 'ipv4'];
}
const MAX_PROXY_HOPS = 10;

function commaList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** The first problem with an origin in CORS_ORIGINS, or undefined when it is one. */
function originProblem(entry: string): string | undefined {
  if (entry === '*') return 'must be "*" alone, or a list of origins without it';
  if (entry.includes('*')) {
    return `has "${entry}": an origin cannot hold a wildcard (list each origin, or give "*" alone)`;
  }
  let origin: string | undefined;
  try {
    const url = new URL(entry);
    if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
  } catch {
    // not a URL at all
  }
  if (origin === undefined) {
    return `has "${entry}", which is not a web origin (such as https://pay.example.com or http://127.0.0.1:5173)`;
  }
  if (origin !== entry) {
    return `has "${entry}", which is not an origin as a browser sends it: write "${origin}" (scheme, host and port only)`;
  }
  return undefined;
}

/**
 * CORS_ORIGINS: `*`, or the web origins allowed to call the API from a browser, comma-separated. An
 * origin is exactly what a browser sends in its Origin header (scheme, host and a port other than
 * the scheme's default, nothing more), so anything else (a path, a trailing slash, a default port,
 * a wildcard in a host) could never match and is refused here rather than ignored.
 */
export function corsOrigins(value: string, ctx: z.RefinementCtx): '*' | readonly string[] {
  const list = commaList(value);
  if (list.length === 1 && list[0] === '*') return '*';
  for (const entry of list) {
    const message = originProblem(entry);
    if (message !== undefined) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
  }
  return Object.freeze([...new Set(list)]);
}

/** MPESA_CALLBACK_ALLOWED_IPS: unset (the default list), `off`, or IP addresses. */
export function callbackAllowedIps(
  value: string | undefined,
  ctx: z.RefinementCtx,
): string[] | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'off') return [];
  const list = commaList(value);
  for (const ip of list) {
    if (!z.union([z.ipv4(), z.ipv6()]).safeParse(ip).success) {
      ctx.addIssue({ code: 'custom', message: `has "${ip}", which is not an IP address` });
      return z.NEVER;
    }
  }
  return list;
}

/** The first problem with a proxy in TRUST_PROXY, or undefined when it is one. */
function proxyProblem(entry: string): string | undefined {
  if (!PROXY_ADDRESS.safeParse(entry).success) {
    return `has "${entry}", which is not an IP address or a CIDR range (give the proxies' addresses, or their number)`;
  }
  if (tooWide(entry)) {
    return `has "${entry}", a range so wide it would take clients for proxies (at most /${MIN_PROXY_PREFIX.ipv4} for IPv4, /${MIN_PROXY_PREFIX.ipv6} for IPv6)`;
  }
  return undefined;
}

/** TRUST_PROXY: `false`, `true`, a number of proxies, or their addresses and ranges. */
export function trustProxy(value: string, ctx: z.RefinementCtx): boolean | number | string[] {
  if (value === 'false' || value === '') return false;
  if (value === 'true') return true;
  // A whole number: how many proxies stand in front of the app (the client is that many
  // addresses from the right of X-Forwarded-For). A large count would trust every address,
  // as `true` does.
  if (/^[0-9]+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_PROXY_HOPS) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_PROXY_HOPS} proxies` });
      return z.NEVER;
    }
    return hops === 0 ? false : hops;
  }
  const list = commaList(value);
  for (const entry of list) {
    const message = proxyProblem(entry);
    if (message !== undefined) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
  }
  return list;
}
