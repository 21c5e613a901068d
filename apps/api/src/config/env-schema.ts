/** Every environment variable the API reads, as one zod schema: its name, its form and its default. */
import path from 'node:path';
import { z } from 'zod';
import { isTimeZone } from '../lib/business-day.ts';
import { DEFAULT_BUSY_TIMEOUT_MS } from '../db/node-sqlite-dialect.ts';
import { PASSWORD_HASH_COST } from '../lib/password.ts';
import {
  CALLBACK_SECRET_FORMAT,
  CALLBACK_SECRET_LENGTH,
  DEFAULT_DATA_DIR,
  REPO_ROOT,
} from './constants.ts';
import {
  callbackAllowedIps,
  corsOrigins,
  count,
  milliseconds,
  optionalSecret,
  optionalText,
  port,
  securityCredential,
  retentionDays,
  seconds,
  trustProxy,
} from './parsers.ts';

const httpUrl = () => z.url({ protocol: /^https?$/ });
const shortcode = (message: string) =>
  z
    .string()
    .trim()
    .regex(/^[0-9]{5,7}$/, message);

export const EnvSchema = z.object({
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
  MPESA_BASE_URL: httpUrl().optional(),
  MPESA_CONSUMER_KEY: optionalText,
  MPESA_CONSUMER_SECRET: optionalText,
  MPESA_SHORTCODE: shortcode('must be a 5 to 7 digit shortcode').optional(),
  MPESA_PASSKEY: optionalText,
  MPESA_TRANSACTION_TYPE: z
    .enum(['CustomerPayBillOnline', 'CustomerBuyGoodsOnline'])
    .default('CustomerPayBillOnline'),
  MPESA_PARTY_B: shortcode('must be a 5 to 7 digit paybill or till number').optional(),
  MPESA_CALLBACK_URL: httpUrl().optional(),
  MPESA_CALLBACK_SECRET: z
    .string()
    .regex(
      CALLBACK_SECRET_FORMAT,
      `must be ${CALLBACK_SECRET_LENGTH.min} to ${CALLBACK_SECRET_LENGTH.max} letters, digits, "-" or "_"`,
    )
    .optional(),
  // Blank reads as unset, as every optional setting does (a deployment template's empty line).
  MPESA_INITIATOR_NAME: optionalText.pipe(z.string().max(60).optional()),
  MPESA_INITIATOR_PASSWORD: optionalSecret.pipe(z.string().max(200).optional()),
  MPESA_CERTIFICATE_PATH: optionalText,
  MPESA_SECURITY_CREDENTIAL: optionalText.pipe(securityCredential.optional()),
  REFUND_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  REFUND_CHECK_AFTER_S: seconds(60, 1),
  REFUND_GIVE_UP_S: seconds(3600, 1),
  MPESA_B2C_SHORTCODE: shortcode('must be a 5 to 7 digit shortcode').optional(),
  PAYOUT_APPROVAL: z
    .string()
    .trim()
    .refine(
      (value) => /^(always|off|[1-9][0-9]{0,8})$/.test(value),
      'must be always, off, or an amount in whole shillings under which one owner’s word is enough',
    )
    .optional(),
  PAYOUT_MAX_AMOUNT: z.coerce.number().int().min(1).max(10_000_000).default(150_000),
  PAYOUT_DAILY_LIMIT: z.coerce.number().int().min(1).max(1_000_000_000).default(1_000_000),
  PAYOUT_CHECK_AFTER_S: seconds(60, 1),
  PAYOUT_GIVE_UP_S: seconds(3600, 1),
  BALANCE_INTERVAL_S: seconds(3600),
  MPESA_C2B_SHORTCODE: shortcode('must be a 5 to 7 digit till or paybill number').optional(),
  MPESA_C2B_VERSION: z.enum(['v1', 'v2']).default('v2'),
  MPESA_C2B_VALIDATION: z.enum(['off', 'amount', 'invoice']).default('off'),
  MPESA_C2B_RESPONSE_TYPE: z.enum(['Completed', 'Cancelled']).default('Completed'),
  MPESA_C2B_REGISTER: z.enum(['start', 'command']).optional(),
  C2B_MIN_AMOUNT: z.coerce.number().int().min(1).max(250_000).default(1),
  C2B_MAX_AMOUNT: z.coerce.number().int().min(1).max(250_000).default(250_000),
  DARAJA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  SIMULATOR_PUBLIC_URL: httpUrl().optional(),
  RECONCILE_AFTER_S: seconds(90, 1),
  RECONCILE_FIRST_CHECK_S: seconds(65, 1),
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(5000),
  RECONCILE_MAX_BACKOFF_S: seconds(120, 1),
  RECONCILE_GIVE_UP_S: seconds(600, 1),
  PHONE_COOLDOWN_S: seconds(60),
  PAYMENT_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(16_384),
  CALLBACK_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(65_536),
  STKPUSH_RATE_LIMIT: count(10),
  STKPUSH_RATE_WINDOW_S: seconds(60, 1),
  LINKS_PER_HOUR: count(30),
  LINK_PAYMENTS_PER_MINUTE: count(10),
  STKPUSH_REQUEST_LIMIT: z.coerce.number().int().min(0).max(10_000_000).optional(),
  MPESA_CALLBACK_ALLOWED_IPS: z.string().trim().optional().transform(callbackAllowedIps),
  TRUST_PROXY: z.string().trim().default('false').transform(trustProxy),
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
  PHONE_RETENTION_DAYS: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => retentionDays(value, ctx)),
  HISTORY_ACCESS: z.enum(['open', 'operators']).optional(),
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).optional(),
  WEBHOOK_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(1000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  SESSION_COOKIE_SECURE: z.enum(['true', 'false']).optional(),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  PASSWORD_HASH_COST: z.coerce
    .number()
    .int()
    .min(PASSWORD_HASH_COST.min)
    .max(PASSWORD_HASH_COST.max)
    .default(PASSWORD_HASH_COST.default),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
});

export type Env = z.infer<typeof EnvSchema>;

/** Every environment variable the API reads. */
export const SETTING_NAMES = Object.keys(EnvSchema.shape);
