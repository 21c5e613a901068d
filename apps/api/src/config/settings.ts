/**
 * The configuration's groups, each built from the settings it reads, with the rules between
 * settings that it checks. A rule that fails is kept in `problems`; the value built meanwhile is
 * never used (loadConfig throws).
 */
import path from 'node:path';
import {
  DARAJA_BASE_URLS,
  SAFARICOM_CALLBACK_IPS,
  SANDBOX_PASSKEY,
  SANDBOX_SHORTCODE,
  SIMULATOR_BUSINESS_NAME,
} from './constants.ts';
import { PASSWORD_HASH_COST } from '../lib/password.ts';
import type { Env } from './env-schema.ts';
import type { Problems } from './problems.ts';

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Where the API listens, as a URL a local client can reach (0.0.0.0 is not reachable). */
function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

export function databaseSettings(env: Env) {
  return {
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
  };
}

export function reconcileSettings(env: Env, problems: Problems) {
  problems.require(
    ['RECONCILE_GIVE_UP_S', 'RECONCILE_AFTER_S'],
    env.RECONCILE_GIVE_UP_S >= env.RECONCILE_AFTER_S,
    'RECONCILE_GIVE_UP_S must not be shorter than RECONCILE_AFTER_S (a payment would be given up before Daraja is first asked about it)',
  );
  return Object.freeze({
    afterS: env.RECONCILE_AFTER_S,
    /**
     * The first check: once an open prompt has lapsed (about 60 s, docs/daraja-protocol.md §4.3,
     * before which a query answers only "being processed", §5), never later than RECONCILE_AFTER_S.
     */
    firstCheckS: Math.min(env.RECONCILE_FIRST_CHECK_S, env.RECONCILE_AFTER_S),
    intervalMs: env.RECONCILE_INTERVAL_MS,
    maxBackoffS: env.RECONCILE_MAX_BACKOFF_S,
    giveUpS: env.RECONCILE_GIVE_UP_S,
    leaseMs: 4 * env.DARAJA_TIMEOUT_MS + 10_000,
  });
}

export function limitSettings(env: Env) {
  return Object.freeze({
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
  });
}

/**
 * Limits on slow clients. Node checks the header and request timeouts only every
 * `checkIntervalMs` (30 s by default), so that follows the shortest of them: a slow client is
 * cut within its limit plus a tenth of it (at most 1 s more). The request timeout covers
 * receiving the request only, so a payment waiting for Daraja after its body arrived is never cut.
 */
export function httpSettings(env: Env, problems: Problems) {
  problems.require(
    ['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS'],
    env.HTTP_HEADERS_TIMEOUT_MS <= env.HTTP_REQUEST_TIMEOUT_MS,
    'HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS (the whole request includes its headers)',
  );
  return Object.freeze({
    headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    checkIntervalMs: Math.min(1000, Math.ceil(env.HTTP_HEADERS_TIMEOUT_MS / 10)),
  });
}

/**
 * Addresses allowed to deliver callbacks; empty means anyone (the path secret still applies).
 * Safaricom's published list by default in production only.
 */
export function callbackAllowedIps(env: Env): readonly string[] {
  const production = env.MPESA_ENV === 'production';
  return Object.freeze(
    env.MPESA_CALLBACK_ALLOWED_IPS ?? (production ? [...SAFARICOM_CALLBACK_IPS] : []),
  );
}

/**
 * Start-up warnings about settings that work but weaken a protection. What a TRUST_PROXY value lets
 * a client do: `true` believes every X-Forwarded-For header, even one the client wrote itself (a
 * proxy appends to it), so it is refused while the callback allow-list is on and only warned about
 * otherwise (it weakens the per-address limit, nothing more). A hop count is right only when nobody
 * can reach the app except through the proxies.
 */
export function warningsFor(env: Env, allowListOn: boolean, problems: Problems): string[] {
  const warnings: string[] = [];
  const trustProxy = env.TRUST_PROXY;
  problems.require(
    ['TRUST_PROXY', 'MPESA_CALLBACK_ALLOWED_IPS'],
    !(trustProxy === true && allowListOn),
    'TRUST_PROXY=true cannot be used while the callback allow-list (MPESA_CALLBACK_ALLOWED_IPS) is on: ' +
      'any client could then pick its own address with an X-Forwarded-For header and pass the allow-list. ' +
      'Set TRUST_PROXY to the addresses of your proxies, or to how many proxies stand in front of the app.',
  );
  if (trustProxy === true && !allowListOn) {
    warnings.push(
      'TRUST_PROXY=true believes any X-Forwarded-For header, so a client can pick its own address and ' +
        'evade the per-address payment limit; set TRUST_PROXY to the addresses of your proxies, or to their number.',
    );
  }
  if (typeof trustProxy === 'number') {
    warnings.push(
      `TRUST_PROXY=${trustProxy} believes the nearest ${trustProxy} address(es), whoever they are: ` +
        'safe only if the app cannot be reached except through those proxies, since a client connecting ' +
        'directly could pick its own address; give the addresses of your proxies where you can.',
    );
  }
  // The app speaks plain HTTP: a Secure cookie means a proxy ends TLS in front of it, and only a
  // trusted proxy's X-Forwarded-Proto tells the app that its pages are https (features/operators/cross-site.ts).
  const cookieSecure = env.SESSION_COOKIE_SECURE
    ? env.SESSION_COOKIE_SECURE === 'true'
    : env.MPESA_ENV === 'production';
  if (cookieSecure && trustProxy === false) {
    warnings.push(
      'The session cookie is Secure (HTTPS), but TRUST_PROXY is not set: behind a proxy that ends ' +
        'TLS the app sees http, so a sign-in from its own https:// page is refused as another ' +
        "site's. Set TRUST_PROXY to your proxies' addresses (they must send X-Forwarded-Proto), or " +
        "list the app's public origin in CORS_ORIGINS.",
    );
  }
  if (env.CORS_ORIGINS === '*') {
    warnings.push(
      "CORS_ORIGINS=* lets pages on any site call the API from their visitors' browsers: a site could " +
        'send payment prompts through its visitors, each from their own address and so past the ' +
        'per-address limit; list the origins of your web app instead.',
    );
  }
  return warnings;
}

/**
 * Operators and who may see what. HISTORY_ACCESS=operators puts the merchant's history, figures,
 * export and timelines behind a signed-in operator; `open` (the specification's screens) is the
 * default with the simulator and the sandbox. The session cookie is `Secure` by default in
 * production, where the API is reached over HTTPS (behind a proxy that ends TLS, set TRUST_PROXY
 * so that the app knows the request came over HTTPS).
 */
export function operatorSettings(env: Env, problems: Problems) {
  const production = env.MPESA_ENV === 'production';
  problems.require(
    ['SESSION_IDLE_MINUTES', 'SESSION_MAX_HOURS'],
    env.SESSION_IDLE_MINUTES <= env.SESSION_MAX_HOURS * 60,
    'SESSION_IDLE_MINUTES must not be longer than SESSION_MAX_HOURS (a session ends at the first of them)',
  );
  problems.require(
    ['PASSWORD_HASH_COST'],
    !production || env.PASSWORD_HASH_COST >= PASSWORD_HASH_COST.productionMin,
    `PASSWORD_HASH_COST must be at least ${PASSWORD_HASH_COST.productionMin} when MPESA_ENV=production (a lower one is for tests)`,
  );
  return Object.freeze({
    historyAccess: env.HISTORY_ACCESS ?? (production ? 'operators' : 'open'),
    cookieSecure: env.SESSION_COOKIE_SECURE ? env.SESSION_COOKIE_SECURE === 'true' : production,
    idleMs: env.SESSION_IDLE_MINUTES * 60_000,
    maxMs: env.SESSION_MAX_HOURS * 3_600_000,
    /** scrypt's log2 N for new passwords and the unknown names' dummy hash (lib/password.ts). */
    passwordHashCost: env.PASSWORD_HASH_COST,
  });
}

/** Whom the payer pays, as the M-PESA prompt names the shortcode's owner (see loadConfig). */
export function businessName(env: Env): string | undefined {
  return env.BUSINESS_NAME ?? (env.MPESA_ENV === 'simulator' ? SIMULATOR_BUSINESS_NAME : undefined);
}

/** A setting that must be given outside the simulator; a problem if it is not. */
function required(env: Env, name: keyof Env, problems: Problems): string {
  const value = env[name];
  if (value === undefined || value === '') {
    problems.add(name, `${name} is required when MPESA_ENV=${env.MPESA_ENV}`);
    return '';
  }
  return String(value);
}

/** Daraja: where it is, the merchant's credentials, and where its callbacks come back. */
export function mpesaSettings(env: Env, problems: Problems) {
  const simulated = env.MPESA_ENV === 'simulator';
  const production = env.MPESA_ENV === 'production';
  const simulatorUrl = localUrl('127.0.0.1', env.SIMULATOR_PORT);
  const baseUrl = trimSlash(
    env.MPESA_BASE_URL ??
      (env.MPESA_ENV === 'simulator' ? simulatorUrl : DARAJA_BASE_URLS[env.MPESA_ENV]),
  );
  const consumerKey = simulated
    ? (env.MPESA_CONSUMER_KEY ?? 'simulator-consumer-key')
    : required(env, 'MPESA_CONSUMER_KEY', problems);
  const consumerSecret = simulated
    ? (env.MPESA_CONSUMER_SECRET ?? 'simulator-consumer-secret')
    : required(env, 'MPESA_CONSUMER_SECRET', problems);
  const shortcode = production
    ? required(env, 'MPESA_SHORTCODE', problems)
    : (env.MPESA_SHORTCODE ?? SANDBOX_SHORTCODE);
  const passkey = production
    ? required(env, 'MPESA_PASSKEY', problems)
    : (env.MPESA_PASSKEY ?? SANDBOX_PASSKEY);
  const callbackBaseUrl = simulated
    ? trimSlash(env.MPESA_CALLBACK_URL ?? localUrl(env.HOST, env.PORT))
    : trimSlash(required(env, 'MPESA_CALLBACK_URL', problems));
  problems.require(
    ['MPESA_CALLBACK_URL'],
    !production || callbackBaseUrl.startsWith('https://'),
    'MPESA_CALLBACK_URL must be an https:// URL when MPESA_ENV=production',
  );
  return Object.freeze({
    env: env.MPESA_ENV,
    baseUrl,
    consumerKey,
    consumerSecret,
    shortcode,
    passkey,
    transactionType: env.MPESA_TRANSACTION_TYPE,
    partyB: env.MPESA_PARTY_B ?? shortcode,
    callbackBaseUrl,
    timeoutMs: env.DARAJA_TIMEOUT_MS,
    simulatorUrl: simulated ? trimSlash(env.SIMULATOR_PUBLIC_URL ?? baseUrl) : undefined,
  });
}
