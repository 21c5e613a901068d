/** The simulator's settings: one zod schema, parsed once. Nothing else reads process.env. */
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);
/** A whole number from `min` to `max`, said so when it is not. */
const bounded = (fallback: number, min: number, max: number) =>
  int(fallback, min).pipe(z.number().max(max, `must be at most ${max}`));
const DAY_S = 86_400;
const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback)
    .transform((value) => value === 'true' || value === '1');
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const EnvSchema = z.object({
  /**
   * Where the simulator listens. Its own setting, not the app's HOST: HOST=0.0.0.0 opens the app to
   * other machines and must not open the simulator's control API and request log with it.
   */
  SIM_HOST: z
    .string()
    .trim()
    .refine((value) => net.isIP(value) !== 0 || HOST_NAME.test(value), {
      message: 'must be an IP address or a host name',
    })
    .default('127.0.0.1'),
  /** Let other machines use the control API (/_sim/) and the virtual phone (remote-access.ts). */
  SIM_REMOTE_CONTROL: flag('false'),
  SIMULATOR_PORT: int(3001).pipe(z.number().max(65535)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Pin the OAuth consumer key and secret; unset, any non-empty pair is accepted. */
  SIM_CONSUMER_KEY: optionalText,
  SIM_CONSUMER_SECRET: optionalText,
  /** Lipa Na M-PESA Online shortcode and passkey the simulator knows (Safaricom's sandbox pair). */
  SIM_SHORTCODE: z
    .string()
    .trim()
    .regex(/^[0-9]{5,7}$/)
    .default('174379'),
  SIM_PASSKEY: z
    .string()
    .trim()
    .min(1)
    .default('bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919'),
  SIM_TOKEN_TTL_S: bounded(3600, 1, 365 * DAY_S),
  SIM_CALLBACK_DELAY_MS: bounded(6000, 0, DAY_S * 1000),
  SIM_AUTO_APPROVE_S: bounded(10, 0, DAY_S),
  SIM_PROMPT_TIMEOUT_S: bounded(60, 1, DAY_S),
  SIM_PIN: z
    .string()
    .regex(/^[0-9]{4,6}$/)
    .default('1234'),
  /** The merchant name the virtual phone shows on prompts and messages. */
  SIM_BUSINESS_NAME: z.string().trim().min(1).max(60).default('Sandbox Test Merchant'),
  SIM_CALLBACK_TIMEOUT_MS: bounded(10_000, 100, 600_000),
  /**
   * Deliveries tried again after a non-2xx answer or no answer: none by default, as Safaricom is
   * said to do; public sources disagree (docs/daraja-protocol.md §4.3), so a client can be tried
   * both ways.
   */
  SIM_CALLBACK_RETRIES: int(0).pipe(z.number().max(10)),
  /** The wait before the first retry, doubled before each next one. */
  SIM_CALLBACK_RETRY_BACKOFF_MS: int(1000).pipe(z.number().max(600_000)),
  /**
   * The shapes of a Result (docs/daraja-protocol.md §M1.3, §M1.6) that public sources disagree on,
   * each off by default, as every captured Result was: ResultType, ResultCode and numeric values
   * as strings, as the docs' samples write them ("docs mode"); a failure with one ResultParameter,
   * an object, as captured in 2020; ReferenceItem as an array, as the B2B docs' sample has it.
   */
  SIM_RESULT_STRINGS: flag('false'),
  SIM_RESULT_FAILURE_PARAMETER: flag('false'),
  SIM_RESULT_REFERENCE_ARRAY: flag('false'),
  /**
   * Before each Result, a notice to the request's QueueTimeOutURL, and the Result this long after
   * it (0: no notice, as by default). What Daraja posts there was never captured (§M1.4).
   */
  SIM_QUEUE_TIMEOUT_NOTICE_MS: bounded(0, 0, DAY_S * 1000),
  /**
   * Reject AccountReference over 12 and TransactionDesc over 13 characters (Daraja's documented
   * limits), and a TransactionType or CommandID with spaces around it, which Daraja takes
   * (docs/daraja-protocol.md §8).
   */
  SIM_STRICT_LENGTHS: flag('false'),
  /**
   * Refuse a Timestamp further than this many hours from Nairobi time (0: off). Whether Daraja does
   * is undocumented (docs/daraja-protocol.md §3.3), but it catches the commonest bug: a server
   * sending UTC.
   */
  SIM_MAX_TIMESTAMP_SKEW_H: z.coerce.number().min(0).max(48).default(0),
  /** Same phone, same amount, within 2 minutes → ResultCode 17 (Daraja's repeat rule). */
  SIM_REPEAT_RULE: flag('true'),
  /**
   * The initiator the Result APIs (B2C, B2B, transaction status, account balance, reversal) know,
   * and its password, which a SecurityCredential must hold (docs/daraja-protocol.md §M2.5, §M2.6):
   * the sandbox's own pair by default.
   */
  SIM_INITIATOR_NAME: z.string().trim().min(1).max(60).default('testapi'),
  SIM_INITIATOR_PASSWORD: z.string().min(1).max(200).default('Safaricom999!*!'),
  /** Failed credentials in a row that lock the initiator (8006) until reset or unlock (0: never). */
  SIM_INITIATOR_LOCK_AFTER: bounded(5, 0, 1000),
  /** Refuse (2001) a credential made with another certificate, which the simulator cannot read. */
  SIM_STRICT_CREDENTIALS: flag('false'),
  /**
   * Dynamic QR's ResponseCode: "00", as client libraries expect, or an M-PESA ConversationID as
   * Daraja's docs show it (docs/daraja-protocol.md §M8.2).
   */
  SIM_QR_RESPONSE_CODE: z.enum(['00', 'conversation-id']).default('00'),
  /**
   * How long C2B waits for a merchant's validation answer before its registered ResponseType
   * decides: "usually < 8 seconds" (docs/daraja-protocol.md §M3.4). A shortcode may have its own
   * (PUT /_sim/c2b/shortcodes/:shortcode).
   */
  SIM_C2B_VALIDATION_TIMEOUT_MS: bounded(8000, 100, 600_000),
  /**
   * C2B register URL as production plays it (docs/daraja-protocol.md §M3.1): a shortcode's URLs
   * are registered once (500.003.1001 after), and only over HTTPS. Off: the sandbox, which lets a
   * registration be overwritten and takes HTTP.
   */
  SIM_C2B_PRODUCTION_URLS: flag('false'),
  /** Append every request and callback, with its answer, to this JSON-lines file (journal.ts). */
  SIM_JOURNAL: optionalText,
  /** Keep tokens, prompts, the ledger, Results and callbacks owed in this file across restarts (state.ts). */
  SIM_STATE: optionalText,
  /** Answer CONNECT for Safaricom's two hosts, serving Daraja's routes to them (proxy/tunnel.ts). */
  SIM_PROXY: flag('true'),
  /** Where the proxy's certificate authority is kept (proxy/authority.ts); see `proxyCaDir` below. */
  SIM_PROXY_CA_DIR: optionalText,
});

/**
 * The proxy's certificate authority is kept where it outlives the process, so that a client told
 * once to trust it goes on trusting it: the folder SIM_PROXY_CA_DIR names, else SIM_STATE's (what a
 * restart keeps, kept together), else this one, the user's own.
 */
export const DEFAULT_CA_DIR = path.join(os.homedir(), '.daraja-simulator');

/** Every environment variable the simulator reads. */
export const SETTING_NAMES = Object.keys(EnvSchema.shape) as SettingName[];

export type SettingName = keyof typeof EnvSchema.shape;

/**
 * What each setting does, in a line: `daraja-simulator --help` prints it beside the setting's flag
 * (cli.ts). Kept here, typed by the schema, so that a setting cannot be added without one.
 */
export const SETTING_HELP: Record<SettingName, string> = {
  SIM_HOST: 'Address to listen on; 0.0.0.0 lets other machines use it as their Daraja.',
  SIM_REMOTE_CONTROL: 'Let other machines use the control API (/_sim/) and the virtual phone.',
  SIMULATOR_PORT: 'Port to listen on (0: any free port).',
  LOG_LEVEL: 'fatal, error, warn, info, debug, trace or silent.',
  SIM_CONSUMER_KEY: 'Accept only this OAuth consumer key (unset: any non-empty pair).',
  SIM_CONSUMER_SECRET: 'Accept only this OAuth consumer secret (unset: any).',
  SIM_SHORTCODE: 'The Lipa Na M-PESA Online shortcode it knows.',
  SIM_PASSKEY: "That shortcode's passkey (the default is Safaricom's public sandbox passkey).",
  SIM_TOKEN_TTL_S: 'Lifetime of access tokens, in seconds.',
  SIM_CALLBACK_DELAY_MS:
    'Delay before a forced outcome and its callback, and before a Result, in milliseconds.',
  SIM_AUTO_APPROVE_S: 'Other numbers are approved after this many seconds (0: never).',
  SIM_PROMPT_TIMEOUT_S: 'An unanswered prompt ends with 1037 after this many seconds.',
  SIM_PIN: 'The PIN that pays on the virtual phone (4 to 6 digits).',
  SIM_BUSINESS_NAME: "The merchant name on the virtual phone's prompts and messages.",
  SIM_CALLBACK_TIMEOUT_MS:
    'How long to wait for your callback endpoint to answer, in milliseconds.',
  SIM_CALLBACK_RETRIES: 'Deliveries of a callback tried again after a non-2xx answer or none.',
  SIM_CALLBACK_RETRY_BACKOFF_MS: 'The wait before the first retry, doubled before each next one.',
  SIM_RESULT_STRINGS:
    "Write a Result's ResultType, ResultCode and numeric values as strings, as Daraja's docs do.",
  SIM_RESULT_FAILURE_PARAMETER:
    'Give a failed Result one ResultParameter (BOCompletedTime) as an object, not an array.',
  SIM_RESULT_REFERENCE_ARRAY: "Write a Result's ReferenceItem as an array, even of one item.",
  SIM_QUEUE_TIMEOUT_NOTICE_MS:
    'Send a timeout notice to QueueTimeOutURL before each Result, and the Result this long after (0: none).',
  SIM_STRICT_LENGTHS:
    'Refuse AccountReference over 12 and TransactionDesc over 13 characters, and a TransactionType or CommandID with spaces around it.',
  SIM_MAX_TIMESTAMP_SKEW_H:
    'Refuse a Timestamp more than this many hours from Nairobi time (0: off).',
  SIM_REPEAT_RULE: 'Same phone and amount again within 2 minutes gives ResultCode 17.',
  SIM_INITIATOR_NAME: 'The initiator (Initiator, InitiatorName) the Result APIs know.',
  SIM_INITIATOR_PASSWORD:
    "That initiator's password, which SecurityCredential must hold (encrypted with GET /_sim/certificate).",
  SIM_INITIATOR_LOCK_AFTER:
    'Wrong credentials in a row that lock the initiator (8006) until reset (0: never).',
  SIM_STRICT_CREDENTIALS:
    "Refuse (2001) a credential made with another certificate (Safaricom's), which it cannot read.",
  SIM_QR_RESPONSE_CODE:
    "Dynamic QR's ResponseCode: 00, or conversation-id for an AG_… id as Daraja's docs show.",
  SIM_C2B_VALIDATION_TIMEOUT_MS:
    "How long C2B waits for the merchant's validation answer before ResponseType decides, in milliseconds.",
  SIM_C2B_PRODUCTION_URLS:
    'C2B register URL as in production: once per shortcode (500.003.1001 after), HTTPS only.',
  SIM_JOURNAL:
    'Append every request and callback, with its answer, to this file (JSON lines; replay reads it).',
  SIM_STATE:
    'Keep tokens, prompts, the ledger, Results and callbacks owed in this file, so that a restart carries on.',
  SIM_PROXY:
    'Answer HTTPS_PROXY clients for sandbox.safaricom.co.ke and api.safaricom.co.ke (README: "Any SDK as it is").',
  SIM_PROXY_CA_DIR: `Folder for the proxy's certificate authority (unset: SIM_STATE's folder, else ${DEFAULT_CA_DIR}).`,
};

/** What the simulator's own settings' names start with (all but LOG_LEVEL). */
export const SETTING_PREFIX = /^SIM(?:ULATOR)?_/;

/** The fewest single-character edits that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        row[j]! + 1,
        next[j - 1]! + 1,
        row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length]!;
}

/**
 * The setting a name that is none was likely meant to be: the same words under the other prefix
 * (SIM_PORT for SIMULATOR_PORT), else one a slip or two away (SIM_CALLBAK_DELAY_MS).
 */
function meantSetting(name: string): SettingName | undefined {
  const words = name.replace(SETTING_PREFIX, '');
  const samePrefixless = SETTING_NAMES.find(
    (setting) => setting.replace(SETTING_PREFIX, '') === words,
  );
  if (samePrefixless) return samePrefixless;
  const [nearest] = SETTING_NAMES.map((setting) => ({
    setting,
    distance: editDistance(name, setting),
  })).sort((a, b) => a.distance - b.distance);
  return nearest && nearest.distance <= 2 ? nearest.setting : undefined;
}

/**
 * A sentence for each variable named like a setting (SIM_…, SIMULATOR_…) that is none: the schema
 * ignores it, so a misspelt setting would leave its default in place without a word. Start-up
 * logs them as warnings.
 */
export function unknownSettings(source: Record<string, string | undefined>): string[] {
  return Object.keys(source)
    .filter(
      (name) => SETTING_PREFIX.test(name) && !(SETTING_NAMES as readonly string[]).includes(name),
    )
    .sort()
    .map((name) => {
      const meant = meantSetting(name);
      return meant
        ? `${name} is not a setting; did you mean ${meant}? It is ignored.`
        : `${name} is not a setting of the simulator (--help lists them); it is ignored.`;
    });
}

/** Each setting's value when it is not set, as the schema gives it. */
export function settingDefaults() {
  return EnvSchema.parse({});
}

export class SimulatorConfigError extends Error {
  override name = 'SimulatorConfigError';
  /** The setting at fault, and what is wrong with its value (the message says both). */
  readonly setting: string;
  readonly problem: string;

  constructor(setting: string, problem: string) {
    super(`${setting} ${problem}`);
    this.setting = setting;
    this.problem = problem;
  }
}

export function loadSimulatorConfig(source: Record<string, string | undefined>) {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? 'configuration';
    throw new SimulatorConfigError(name, issue?.message ?? 'is invalid');
  }
  const env = parsed.data;
  return Object.freeze({
    host: env.SIM_HOST,
    remoteControl: env.SIM_REMOTE_CONTROL,
    port: env.SIMULATOR_PORT,
    logLevel: env.LOG_LEVEL,
    consumerKey: env.SIM_CONSUMER_KEY,
    consumerSecret: env.SIM_CONSUMER_SECRET,
    shortcode: env.SIM_SHORTCODE,
    passkey: env.SIM_PASSKEY,
    tokenTtlS: env.SIM_TOKEN_TTL_S,
    callbackDelayMs: env.SIM_CALLBACK_DELAY_MS,
    autoApproveS: env.SIM_AUTO_APPROVE_S,
    promptTimeoutS: env.SIM_PROMPT_TIMEOUT_S,
    pin: env.SIM_PIN,
    businessName: env.SIM_BUSINESS_NAME,
    callbackTimeoutMs: env.SIM_CALLBACK_TIMEOUT_MS,
    callbackRetries: env.SIM_CALLBACK_RETRIES,
    callbackRetryBackoffMs: env.SIM_CALLBACK_RETRY_BACKOFF_MS,
    resultStrings: env.SIM_RESULT_STRINGS,
    resultFailureParameter: env.SIM_RESULT_FAILURE_PARAMETER,
    resultReferenceArray: env.SIM_RESULT_REFERENCE_ARRAY,
    queueTimeoutNoticeMs: env.SIM_QUEUE_TIMEOUT_NOTICE_MS,
    strictLengths: env.SIM_STRICT_LENGTHS,
    repeatRule: env.SIM_REPEAT_RULE,
    qrResponseCode: env.SIM_QR_RESPONSE_CODE,
    c2bValidationTimeoutMs: env.SIM_C2B_VALIDATION_TIMEOUT_MS,
    c2bProductionUrls: env.SIM_C2B_PRODUCTION_URLS,
    maxTimestampSkewH: env.SIM_MAX_TIMESTAMP_SKEW_H,
    initiatorName: env.SIM_INITIATOR_NAME,
    initiatorPassword: env.SIM_INITIATOR_PASSWORD,
    initiatorLockAfter: env.SIM_INITIATOR_LOCK_AFTER,
    strictCredentials: env.SIM_STRICT_CREDENTIALS,
    journal: env.SIM_JOURNAL,
    state: env.SIM_STATE,
    proxy: env.SIM_PROXY,
    proxyCaDir:
      env.SIM_PROXY_CA_DIR ??
      (env.SIM_STATE ? path.dirname(path.resolve(env.SIM_STATE)) : DEFAULT_CA_DIR),
  });
}

export type SimulatorConfig = ReturnType<typeof loadSimulatorConfig>;
