/**
 * The API's configuration: one zod schema, parsed once at start-up. Nothing else reads process.env.
 */
import path from 'node:path';
import { z } from 'zod';
import { isTimeZone } from './lib/business-day.ts';
import { DEFAULT_BUSY_TIMEOUT_MS } from './db/node-sqlite-dialect.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
/** Where the database (and `npm run dev`'s simulator state) is kept unless DATA_DIR says. */
export const DEFAULT_DATA_DIR = path.join(REPO_ROOT, 'data');

/** Safaricom's public sandbox Lipa Na M-PESA Online shortcode and passkey (PROTOCOL.md §3.2). */
export const SANDBOX_SHORTCODE = '174379';
export const SANDBOX_PASSKEY = 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919';

export const DARAJA_BASE_URLS = {
  sandbox: 'https://sandbox.safaricom.co.ke',
  production: 'https://api.safaricom.co.ke',
} as const;

/** The name the simulator's prompts give the merchant unless SIM_BUSINESS_NAME says otherwise. */
export const SIMULATOR_BUSINESS_NAME = 'Sandbox Test Merchant';

/**
 * Safaricom's published callback source addresses (PROTOCOL.md §4.3). The list is widely copied and
 * not complete; production deployments should confirm it and override MPESA_CALLBACK_ALLOWED_IPS.
 */
export const SAFARICOM_CALLBACK_IPS = [
  '196.201.214.200',
  '196.201.214.206',
  '196.201.213.114',
  '196.201.214.207',
  '196.201.214.208',
  '196.201.213.44',
  '196.201.212.127',
  '196.201.212.138',
  '196.201.212.129',
  '196.201.212.136',
  '196.201.212.74',
  '196.201.212.69',
] as const;

/**
 * The callback secret travels as a path segment (/api/mpesa/callback/<secret>), and it is the
 * longest one the API has: the router's parameter limit is its longest allowed length.
 */
export const CALLBACK_SECRET_LENGTH = { min: 16, max: 128 } as const;
export const CALLBACK_SECRET_FORMAT = new RegExp(
  `^[A-Za-z0-9_-]{${CALLBACK_SECRET_LENGTH.min},${CALLBACK_SECRET_LENGTH.max}}$`,
);

/** Up to 30 days: longer is a mistake, and far longer overflows dates and timers. */
const seconds = (fallback: number, min = 0) =>
  z.coerce
    .number()
    .int()
    .min(min)
    .max(30 * 86_400)
    .default(fallback);
const count = (fallback: number) => z.coerce.number().int().min(0).max(1_000_000).default(fallback);
/** A connection timeout: never 0, which Node reads as "no limit at all". */
const milliseconds = (fallback: number) =>
  z.coerce.number().int().min(100).max(600_000).default(fallback);
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
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/**
 * CORS_ORIGINS: `*`, or the web origins allowed to call the API from a browser, comma-separated. An
 * origin is exactly what a browser sends in its Origin header (scheme, host and a port other than
 * the scheme's default, nothing more), so anything else (a path, a trailing slash, a default port,
 * a wildcard in a host) could never match and is refused here rather than ignored.
 */
function corsOrigins(value: string, ctx: z.RefinementCtx): '*' | readonly string[] {
  const list = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (list.length === 1 && list[0] === '*') return '*';
  for (const entry of list) {
    if (entry === '*') {
      ctx.addIssue({
        code: 'custom',
        message: 'must be "*" alone, or a list of origins without it',
      });
      return z.NEVER;
    }
    if (entry.includes('*')) {
      ctx.addIssue({
        code: 'custom',
        message: `has "${entry}": an origin cannot hold a wildcard (list each origin, or give "*" alone)`,
      });
      return z.NEVER;
    }
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      // not a URL at all
    }
    if (origin === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `has "${entry}", which is not a web origin (such as https://pay.example.com or http://127.0.0.1:5173)`,
      });
      return z.NEVER;
    }
    if (origin !== entry) {
      ctx.addIssue({
        code: 'custom',
        message: `has "${entry}", which is not an origin as a browser sends it: write "${origin}" (scheme, host and port only)`,
      });
      return z.NEVER;
    }
  }
  return Object.freeze([...new Set(list)]);
}

const EnvSchema = z.object({
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PORT: port(3000),
  SIMULATOR_PORT: port(3001),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().trim().min(1).default(DEFAULT_DATA_DIR),
  DATABASE_URL: optionalText,
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  DATABASE_SCHEMA: z
    .string()
    .trim()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case PostgreSQL schema name')
    .optional(),
  DATABASE_CONNECT_TIMEOUT_MS: milliseconds(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds(10_000),
  DATABASE_BUSY_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(DEFAULT_BUSY_TIMEOUT_MS),
  EXPORT_MAX_RUNNING: z.coerce.number().int().min(1).max(1000).default(4),
  EXPORT_STALL_TIMEOUT_MS: milliseconds(60_000),
  WEB_DIST_DIR: z.string().trim().min(1).default(path.join(REPO_ROOT, 'apps/web/dist')),
  MPESA_ENV: z.enum(['simulator', 'sandbox', 'production']).default('simulator'),
  MPESA_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  MPESA_CONSUMER_KEY: optionalText,
  MPESA_CONSUMER_SECRET: optionalText,
  MPESA_SHORTCODE: z
    .string()
    .trim()
    .regex(/^[0-9]{5,7}$/, 'must be a 5 to 7 digit shortcode')
    .optional(),
  MPESA_PASSKEY: optionalText,
  MPESA_TRANSACTION_TYPE: z
    .enum(['CustomerPayBillOnline', 'CustomerBuyGoodsOnline'])
    .default('CustomerPayBillOnline'),
  MPESA_PARTY_B: z
    .string()
    .trim()
    .regex(/^[0-9]{5,7}$/, 'must be a 5 to 7 digit paybill or till number')
    .optional(),
  MPESA_CALLBACK_URL: z.url({ protocol: /^https?$/ }).optional(),
  MPESA_CALLBACK_SECRET: z
    .string()
    .regex(
      CALLBACK_SECRET_FORMAT,
      `must be ${CALLBACK_SECRET_LENGTH.min} to ${CALLBACK_SECRET_LENGTH.max} letters, digits, "-" or "_"`,
    )
    .optional(),
  DARAJA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  SIMULATOR_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  RECONCILE_AFTER_S: seconds(90, 1),
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(5000),
  RECONCILE_MAX_BACKOFF_S: seconds(120, 1),
  RECONCILE_GIVE_UP_S: seconds(600, 1),
  PHONE_COOLDOWN_S: seconds(60),
  PAYMENT_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(16_384),
  CALLBACK_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(65_536),
  STKPUSH_RATE_LIMIT: count(10),
  STKPUSH_RATE_WINDOW_S: seconds(60, 1),
  STKPUSH_REQUEST_LIMIT: z.coerce.number().int().min(0).max(10_000_000).optional(),
  MPESA_CALLBACK_ALLOWED_IPS: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      if (value === 'off') return [];
      const list = value
        .split(',')
        .map((ip) => ip.trim())
        .filter(Boolean);
      for (const ip of list) {
        if (!z.union([z.ipv4(), z.ipv6()]).safeParse(ip).success) {
          ctx.addIssue({ code: 'custom', message: `has "${ip}", which is not an IP address` });
          return z.NEVER;
        }
      }
      return list;
    }),
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((value, ctx): boolean | number | string[] => {
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
      const list = value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      for (const entry of list) {
        if (!PROXY_ADDRESS.safeParse(entry).success) {
          ctx.addIssue({
            code: 'custom',
            message: `has "${entry}", which is not an IP address or a CIDR range (give the proxies' addresses, or their number)`,
          });
          return z.NEVER;
        }
        if (tooWide(entry)) {
          ctx.addIssue({
            code: 'custom',
            message: `has "${entry}", a range so wide it would take clients for proxies (at most /${MIN_PROXY_PREFIX.ipv4} for IPv4, /${MIN_PROXY_PREFIX.ipv6} for IPv6)`,
          });
          return z.NEVER;
        }
      }
      return list;
    }),
  BUSINESS_NAME: z
    .string()
    .trim()
    .max(60, 'must be at most 60 characters')
    .transform((value) => (value === '' ? undefined : value))
    .optional(),
  BUSINESS_TIME_ZONE: z
    .string()
    .trim()
    .default('Africa/Nairobi')
    .refine(isTimeZone, 'must be an IANA time zone, such as Africa/Nairobi'),
  CORS_ORIGINS: z.string().trim().default('').transform(corsOrigins),
  HTTP_HEADERS_TIMEOUT_MS: milliseconds(10_000),
  HTTP_REQUEST_TIMEOUT_MS: milliseconds(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000),
});

type Env = z.infer<typeof EnvSchema>;

/** Every environment variable the API reads. */
export const SETTING_NAMES = Object.keys(EnvSchema.shape);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function requireSetting(env: Env, name: keyof Env): string {
  const value = env[name];
  if (value === undefined || value === '') {
    throw new ConfigError(`${name} is required when MPESA_ENV=${env.MPESA_ENV}`);
  }
  return String(value);
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Where the API listens, as a URL a local client can reach (0.0.0.0 is not reachable). */
function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * What a TRUST_PROXY value lets a client do. `true` believes every X-Forwarded-For header, even one
 * the client wrote itself (a proxy appends to it), so it is refused while the callback allow-list
 * is on and only warned about otherwise (it weakens the per-address limit, nothing more). A hop
 * count is right only when nobody can reach the app except through the proxies.
 */
function trustProxyWarnings(trustProxy: Env['TRUST_PROXY'], allowListOn: boolean): string[] {
  if (trustProxy === true && allowListOn) {
    throw new ConfigError(
      'TRUST_PROXY=true cannot be used while the callback allow-list (MPESA_CALLBACK_ALLOWED_IPS) is on: ' +
        'any client could then pick its own address with an X-Forwarded-For header and pass the allow-list. ' +
        'Set TRUST_PROXY to the addresses of your proxies, or to how many proxies stand in front of the app.',
    );
  }
  if (trustProxy === true) {
    return [
      'TRUST_PROXY=true believes any X-Forwarded-For header, so a client can pick its own address and ' +
        'evade the per-address payment limit; set TRUST_PROXY to the addresses of your proxies, or to their number.',
    ];
  }
  if (typeof trustProxy === 'number') {
    return [
      `TRUST_PROXY=${trustProxy} believes the nearest ${trustProxy} address(es), whoever they are: ` +
        'safe only if the app cannot be reached except through those proxies, since a client connecting ' +
        'directly could pick its own address; give the addresses of your proxies where you can.',
    ];
  }
  return [];
}

export function loadConfig(source: Record<string, string | undefined>) {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? 'configuration';
    throw new ConfigError(
      `${name} ${issue?.message ?? 'is invalid'} (got ${JSON.stringify(source[name] ?? '')})`,
    );
  }
  const env = parsed.data;
  const simulated = env.MPESA_ENV === 'simulator';
  const simulatorUrl = localUrl('127.0.0.1', env.SIMULATOR_PORT);

  const baseUrl = trimSlash(
    env.MPESA_BASE_URL ??
      (env.MPESA_ENV === 'simulator' ? simulatorUrl : DARAJA_BASE_URLS[env.MPESA_ENV]),
  );
  const production = env.MPESA_ENV === 'production';
  const shortcode = production
    ? requireSetting(env, 'MPESA_SHORTCODE')
    : (env.MPESA_SHORTCODE ?? SANDBOX_SHORTCODE);
  const passkey = production
    ? requireSetting(env, 'MPESA_PASSKEY')
    : (env.MPESA_PASSKEY ?? SANDBOX_PASSKEY);
  const callbackBaseUrl = simulated
    ? trimSlash(env.MPESA_CALLBACK_URL ?? localUrl(env.HOST, env.PORT))
    : trimSlash(requireSetting(env, 'MPESA_CALLBACK_URL'));
  if (production && !callbackBaseUrl.startsWith('https://')) {
    throw new ConfigError('MPESA_CALLBACK_URL must be an https:// URL when MPESA_ENV=production');
  }
  const callbackAllowedIps =
    env.MPESA_CALLBACK_ALLOWED_IPS ?? (production ? [...SAFARICOM_CALLBACK_IPS] : []);
  const warnings = trustProxyWarnings(env.TRUST_PROXY, callbackAllowedIps.length > 0);
  if (env.CORS_ORIGINS === '*') {
    warnings.push(
      "CORS_ORIGINS=* lets pages on any site call the API from their visitors' browsers: a site could " +
        'send payment prompts through its visitors, each from their own address and so past the ' +
        'per-address limit; list the origins of your web app instead.',
    );
  }
  if (env.RECONCILE_GIVE_UP_S < env.RECONCILE_AFTER_S) {
    throw new ConfigError(
      'RECONCILE_GIVE_UP_S must not be shorter than RECONCILE_AFTER_S (a payment would be given up before Daraja is first asked about it)',
    );
  }
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      'HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS (the whole request includes its headers)',
    );
  }

  return Object.freeze({
    host: env.HOST,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL ?? path.join(path.resolve(env.DATA_DIR), 'mpesa.sqlite'),
    /** PostgreSQL only: connections per instance, and the schema to use (default: the user's search path). */
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseSchema: env.DATABASE_SCHEMA,
    /**
     * How long a request waits for the database before it is answered 503 DATABASE_UNAVAILABLE:
     * for a PostgreSQL connection, for one PostgreSQL statement, and for another process's SQLite
     * lock (db/create-db.ts).
     */
    databaseTimeouts: Object.freeze({
      connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      busyMs: env.DATABASE_BUSY_TIMEOUT_MS,
    }),
    webDistDir: path.resolve(env.WEB_DIST_DIR),
    /**
     * Whom the payer pays, as the M-PESA prompt names the shortcode's owner: the payment form says
     * it. The simulator's own default name in simulator mode (its SIM_BUSINESS_NAME); unknown
     * otherwise unless set.
     */
    businessName: env.BUSINESS_NAME ?? (simulated ? SIMULATOR_BUSINESS_NAME : undefined),
    /** Where the merchant's days begin and end (history filters, the summary). */
    businessTimeZone: env.BUSINESS_TIME_ZONE,
    /** Set once the secret is known (from the setting or the data folder); see server.ts. */
    callbackSecret: env.MPESA_CALLBACK_SECRET,
    reconcile: Object.freeze({
      afterS: env.RECONCILE_AFTER_S,
      intervalMs: env.RECONCILE_INTERVAL_MS,
      maxBackoffS: env.RECONCILE_MAX_BACKOFF_S,
      giveUpS: env.RECONCILE_GIVE_UP_S,
      leaseMs: 4 * env.DARAJA_TIMEOUT_MS + 10_000,
    }),
    limits: Object.freeze({
      phoneCooldownS: env.PHONE_COOLDOWN_S,
      /** Payment requests per client address per window; 0 turns the limit off. */
      stkPushPerWindow: env.STKPUSH_RATE_LIMIT,
      stkPushWindowS: env.STKPUSH_RATE_WINDOW_S,
      /**
       * Every payment request per client address per window, valid or not (ten times the payment
       * limit unless set; 0 turns it off): a flood of refused requests is stopped too.
       */
      stkPushRequestsPerWindow: env.STKPUSH_REQUEST_LIMIT ?? env.STKPUSH_RATE_LIMIT * 10,
      paymentBodyBytes: env.PAYMENT_BODY_LIMIT_BYTES,
      callbackBodyBytes: env.CALLBACK_BODY_LIMIT_BYTES,
      /** CSV exports streaming at once in this instance; one more is answered 429. */
      exportsRunning: env.EXPORT_MAX_RUNNING,
      /** An export whose client reads nothing for this long is cut. */
      exportStallMs: env.EXPORT_STALL_TIMEOUT_MS,
    }),
    /**
     * Addresses allowed to deliver callbacks; empty means anyone (the path secret still applies).
     * Safaricom's published list by default in production only.
     */
    callbackAllowedIps: Object.freeze(callbackAllowedIps),
    /** Fastify's trustProxy: false, true (refused with the allow-list on), a hop count, or proxy addresses. */
    trustProxy: env.TRUST_PROXY,
    /**
     * Limits on slow clients. Node checks the header and request timeouts only every
     * `checkIntervalMs` (30 s by default), so that follows the shortest of them: a slow client is
     * cut within its limit plus a tenth of it (at most 1 s more). The request timeout covers
     * receiving the request only, so a payment waiting for Daraja after its body arrived is never cut.
     */
    http: Object.freeze({
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      checkIntervalMs: Math.min(1000, Math.ceil(env.HTTP_HEADERS_TIMEOUT_MS / 10)),
    }),
    /**
     * The web origins whose pages may call /api from a browser (cors.ts): `*` for any, none by
     * default (the web app the API serves is on its own origin and needs no CORS).
     */
    corsOrigins: env.CORS_ORIGINS,
    /** Start-up warnings about settings that work but weaken a protection; server.ts logs them. */
    warnings: Object.freeze(warnings),
    mpesa: Object.freeze({
      env: env.MPESA_ENV,
      baseUrl,
      consumerKey: simulated
        ? (env.MPESA_CONSUMER_KEY ?? 'simulator-consumer-key')
        : requireSetting(env, 'MPESA_CONSUMER_KEY'),
      consumerSecret: simulated
        ? (env.MPESA_CONSUMER_SECRET ?? 'simulator-consumer-secret')
        : requireSetting(env, 'MPESA_CONSUMER_SECRET'),
      shortcode,
      passkey,
      transactionType: env.MPESA_TRANSACTION_TYPE,
      partyB: env.MPESA_PARTY_B ?? shortcode,
      callbackBaseUrl,
      timeoutMs: env.DARAJA_TIMEOUT_MS,
      simulatorUrl: simulated ? trimSlash(env.SIMULATOR_PUBLIC_URL ?? baseUrl) : undefined,
    }),
  });
}

export type Config = ReturnType<typeof loadConfig>;

/** The settings for a process (the server, a command): a bad one stops it with a line naming it. */
export function loadConfigOrExit(source: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(source);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
}
