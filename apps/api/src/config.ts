/**
 * The API's configuration: one zod schema (config/env-schema.ts), parsed once at start-up. Nothing
 * else reads process.env. Every bad setting is reported at once, each in a sentence that begins
 * with its name.
 */
import path from 'node:path';
import {
  businessName,
  callbackAllowedIps,
  databaseSettings,
  httpSettings,
  limitSettings,
  mpesaSettings,
  operatorSettings,
  reconcileSettings,
  warningsFor,
} from './config/settings.ts';
import { c2bSettings, payoutSettings, refundSettings } from './config/money-settings.ts';
import { webhookSettings } from './config/webhook-settings.ts';
import { ConfigError, Problems, readSettings } from './config/problems.ts';

export {
  CALLBACK_SECRET_FORMAT,
  CALLBACK_SECRET_LENGTH,
  DARAJA_BASE_URLS,
  DEFAULT_DATA_DIR,
  REPO_ROOT,
  SAFARICOM_CALLBACK_IPS,
  SANDBOX_PASSKEY,
  SANDBOX_SHORTCODE,
  SIMULATOR_BUSINESS_NAME,
} from './config/constants.ts';
export { SETTING_NAMES } from './config/env-schema.ts';
export { ConfigError } from './config/problems.ts';

export function loadConfig(source: Record<string, string | undefined>) {
  const problems = new Problems();
  const env = readSettings(source, problems);
  const mpesa = mpesaSettings(env, problems);
  const allowedIps = callbackAllowedIps(env);
  const warnings = warningsFor(env, allowedIps.length > 0, problems);
  const reconcile = reconcileSettings(env, problems);
  const http = httpSettings(env, problems);
  const operators = operatorSettings(env, problems);
  const refunds = refundSettings(env, problems);
  const c2b = c2bSettings(env, problems);
  const payouts = payoutSettings(env, problems, mpesa.shortcode);
  const webhooks = webhookSettings(env, problems);
  problems.throwIfAny();

  return Object.freeze({
    host: env.HOST,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    ...databaseSettings(env),
    webDistDir: path.resolve(env.WEB_DIST_DIR),
    /**
     * Whom the payer pays, as the M-PESA prompt names the shortcode's owner: the payment form says
     * it. The simulator's own default name in simulator mode (its SIM_BUSINESS_NAME); unknown
     * otherwise unless set.
     */
    businessName: businessName(env),
    /** Where the merchant's days begin and end (history filters, the summary). */
    businessTimeZone: env.BUSINESS_TIME_ZONE,
    /** Set once the secret is known (from the setting or the data folder); see server.ts. */
    callbackSecret: env.MPESA_CALLBACK_SECRET,
    reconcile,
    limits: limitSettings(env),
    /** Payment links (features/links/): links one operator makes per hour, payments per link per minute. */
    links: Object.freeze({
      linksPerHour: env.LINKS_PER_HOUR,
      paymentsPerMinute: env.LINK_PAYMENTS_PER_MINUTE,
    }),
    callbackAllowedIps: allowedIps,
    /** Fastify's trustProxy: false, true (refused with the allow-list on), a hop count, or proxy addresses. */
    trustProxy: env.TRUST_PROXY,
    http,
    /**
     * The web origins whose pages may call /api from a browser (cors.ts): `*` for any, none by
     * default (the web app the API serves is on its own origin and needs no CORS).
     */
    corsOrigins: env.CORS_ORIGINS,
    /** Start-up warnings about settings that work but weaken a protection; server.ts logs them. */
    warnings: Object.freeze(warnings),
    mpesa,
    /**
     * Days after which a settled payment's phone number is masked in place (transactions/
     * phone-retention.ts); undefined keeps numbers (the default).
     */
    phoneRetentionDays: env.PHONE_RETENTION_DAYS,
    /** HISTORY_ACCESS and the operators' sessions (operators/). */
    operators,
    /** Refunds by reversal: the initiator (undefined: not set up), age limit, recovery. */
    refunds,
    /** Till and paybill payments (C2B); undefined: none taken. */
    c2b,
    /** Payouts by B2C and B2B: the shortcode they pay from, who approves, the shop's limits. */
    payouts,
    /** Webhooks' delivery and the addresses they may go to (webhooks/, docs/webhooks.md). */
    webhooks,
  });
}

export type Config = ReturnType<typeof loadConfig>;

/**
 * The settings for a process (the server, a command): bad ones stop it with a line naming each.
 */
export function loadConfigOrExit(source: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(source);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(describeConfigError(error));
    process.exit(1);
  }
}

/** What a command says of settings it cannot start with: the one problem, or each on a line. */
export function describeConfigError({ problems, message }: ConfigError): string {
  return problems.length === 1
    ? `Configuration error: ${message}`
    : `Configuration errors (${problems.length}):\n  ${problems.join('\n  ')}`;
}
