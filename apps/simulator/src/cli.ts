/**
 * The command line of `daraja-simulator` (server.ts runs it). Every setting of config.ts is also a
 * flag named after its variable (SIM_CALLBACK_DELAY_MS → --callback-delay-ms, SIMULATOR_PORT →
 * --port, LOG_LEVEL → --log-level), yes/no settings as --x and --no-x; a flag wins over the
 * variable. One command besides: `replay <journal> --to <URL>` (replay.ts). It only decides what
 * to do; server.ts does it.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import {
  SETTING_HELP,
  SETTING_NAMES,
  SETTING_PREFIX,
  SimulatorConfigError,
  loadSimulatorConfig,
  settingDefaults,
  unknownSettings,
  type SettingName,
  type SimulatorConfig,
} from './config.ts';
import { CERTIFICATE_FILE } from './operations/initiators/credential.ts';
import { proxyHelp } from './proxy/tunnel.ts';
import { REPLAY_TIMEOUT_MS, ReplayError, checkReplayUrl } from './replay.ts';

export const COMMAND_NAME = 'daraja-simulator';

export type Command =
  /** `warnings`: the environment's variables named like settings that are none (start-up logs them). */
  | { kind: 'serve'; config: SimulatorConfig; warnings: string[] }
  | { kind: 'replay'; file: string; to: string; timeoutMs: number }
  | { kind: 'help'; text: string }
  | { kind: 'version'; text: string }
  | { kind: 'error'; message: string };

/** SIM_CALLBACK_DELAY_MS → callback-delay-ms, SIMULATOR_PORT → port, LOG_LEVEL → log-level. */
export function flagName(setting: SettingName): string {
  return setting.replace(SETTING_PREFIX, '').toLowerCase().replaceAll('_', '-');
}

const defaults = settingDefaults();

/** The settings as flags, in the schema's order. */
export const SETTING_FLAGS = SETTING_NAMES.map((name) => ({
  name,
  flag: flagName(name),
  help: SETTING_HELP[name],
  fallback: defaults[name],
  yesNo: typeof defaults[name] === 'boolean',
}));

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  ...Object.fromEntries(
    SETTING_FLAGS.map(({ flag, yesNo }) => [flag, { type: yesNo ? 'boolean' : 'string' }] as const),
  ),
} as const;

/** The package's version, from its package.json (beside src/ here, beside dist/ once installed). */
export function version(): string {
  const manifest = JSON.parse(
    fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as { version?: unknown };
  return String(manifest.version);
}

export function helpText(): string {
  const rows = SETTING_FLAGS.map(({ name, flag, help, fallback, yesNo }) => {
    const usage = yesNo ? `--[no-]${flag}` : `--${flag} <value>`;
    const shown = fallback === undefined ? 'unset' : `default ${String(fallback)}`;
    return `  ${usage.padEnd(36)} ${name}, ${shown}\n      ${help}`;
  });
  return [
    `Usage: ${COMMAND_NAME} [options]`,
    `       ${COMMAND_NAME} replay <journal.jsonl> --to <URL>`,
    '',
    "An offline Daraja for M-PESA Express (STK push): OAuth, push, query and callbacks as Daraja's",
    'sandbox answers them, test numbers that force each outcome, a control API under /_sim/ and a',
    'virtual phone on its home page.',
    '',
    ...proxyHelp(),
    '',
    'Options (each is also an environment variable; a flag wins over the variable):',
    ...rows,
    `  ${'-h, --help'.padEnd(36)} This help.`,
    `  ${'-v, --version'.padEnd(36)} The version.`,
    '',
    ...credentialHelp(),
    '',
    'Commands:',
    `  ${'replay <journal.jsonl> --to <URL>'.padEnd(36)} Send the callbacks a journal (--journal) recorded`,
    `  ${''.padEnd(36)} to a URL again; ${COMMAND_NAME} replay --help says more.`,
  ].join('\n');
}

/**
 * How to make a SecurityCredential the simulator can read: with its own certificate, as with
 * Safaricom's (docs/daraja-protocol.md §M2.1, §M2.6).
 */
function credentialHelp(): string[] {
  return [
    'SecurityCredential (B2C, B2B, transaction status, account balance, reversal):',
    '  The simulator reads credentials made with its own certificate, served at',
    '  GET /_sim/certificate and shipped at',
    `  ${CERTIFICATE_FILE}`,
    "  Encrypt the initiator's password (--initiator-password) with it, RSA with PKCS#1 v1.5",
    "  padding, and send the result in base64, as with Safaricom's certificate:",
    '    curl -s http://127.0.0.1:3001/_sim/certificate -o simulator.pem',
    "    printf '%s' 'Safaricom999!*!' | openssl pkeyutl -encrypt -certin -inkey simulator.pem | openssl base64 -A",
    '  In Node: crypto.publicEncrypt({ key: pem, padding: crypto.constants.RSA_PKCS1_PADDING },',
    "  Buffer.from(password)).toString('base64'). One made with Safaricom's certificate cannot be",
    '  read here: it is accepted unchecked, unless --strict-credentials.',
  ];
}

const REPLAY_USAGE = `${COMMAND_NAME} replay <journal.jsonl> --to <URL> [--timeout-ms <ms>]`;

export function replayHelpText(): string {
  return [
    `Usage: ${REPLAY_USAGE}`,
    '',
    'Sends the callbacks a journal recorded (a file written with --journal, SIM_JOURNAL) to a URL',
    'again, one after another, each exactly as it was sent, and prints what the receiver answered,',
    "one line per callback: a receiver's handling of real traffic (above all, of the same callback",
    'delivered twice) can be tried again at will. The journal masks secrets in the URLs it shows,',
    'so the URL is given here.',
    '',
    'It exits 0 when the receiver answered every callback with a 2xx, and 1 otherwise: a file',
    'that cannot be read or is not a journal (the line at fault is named), a URL that is not http',
    'or https, a journal with no callbacks, or a callback answered otherwise or not at all.',
    '',
    'Options:',
    `  ${'--to <URL>'.padEnd(36)} Where to send them (required).`,
    `  ${'--timeout-ms <ms>'.padEnd(36)} How long to wait for each answer, default ${REPLAY_TIMEOUT_MS}.`,
    `  ${'-h, --help'.padEnd(36)} This help.`,
  ].join('\n');
}

const REPLAY_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  to: { type: 'string' },
  'timeout-ms': { type: 'string' },
} as const;

function parseReplay(argv: readonly string[]): Command {
  let values: { help?: boolean; to?: string; 'timeout-ms'?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: REPLAY_OPTIONS,
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return { kind: 'error', message: parseError(error, `${COMMAND_NAME} replay --help`) };
  }
  if (values.help) return { kind: 'help', text: replayHelpText() };
  const [file, extra] = positionals;
  if (file === undefined) {
    return { kind: 'error', message: `replay needs a journal file: ${REPLAY_USAGE}` };
  }
  if (extra !== undefined) {
    return {
      kind: 'error',
      message: `Unexpected argument "${extra}": replay takes one journal file (${REPLAY_USAGE}).`,
    };
  }
  if (values.to === undefined) {
    return {
      kind: 'error',
      message: `replay needs --to <URL>, where to send the callbacks: ${REPLAY_USAGE}`,
    };
  }
  try {
    checkReplayUrl(values.to);
  } catch (error) {
    if (!(error instanceof ReplayError)) throw error;
    return { kind: 'error', message: `${error.message}.` };
  }
  const timeout = values['timeout-ms'];
  const timeoutMs = timeout === undefined ? REPLAY_TIMEOUT_MS : Number(timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000) {
    return {
      kind: 'error',
      message: `Bad value for --timeout-ms (${JSON.stringify(timeout)}): a whole number of milliseconds from 1 to 600000.`,
    };
  }
  return { kind: 'replay', file, to: values.to, timeoutMs };
}

/** Node's wording names the option but goes on about positionals; ours points to --help. */
function parseError(error: unknown, help = `${COMMAND_NAME} --help`): string {
  const { code, message } = error as { code?: string; message: string };
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(message)?.[1] ?? message;
    return `Unknown option ${option}: ${help} lists them.`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /ambiguous/.test(message)) {
    // Node's three lines for `--port -1`: the value looks like an option.
    const option = /'([^']+)'/.exec(message)?.[1] ?? 'the option';
    return `${option} needs a value; one that starts with a dash is written ${option}=<value>: ${help} lists the options.`;
  }
  return `${message.split('\n')[0]}: ${help} lists the options.`;
}

/** What the command line asks for, with the environment's settings under the flags'. */
export function parseCommandLine(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): Command {
  // A first word that is not a flag names a command; replay is the only one.
  const first = argv[0];
  if (first === 'replay') return parseReplay(argv.slice(1));
  if (first !== undefined && !first.startsWith('-')) {
    return {
      kind: 'error',
      message: `Unknown command "${first}": ${COMMAND_NAME} takes options, or the command replay (see --help).`,
    };
  }
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    }));
  } catch (error) {
    return { kind: 'error', message: parseError(error) };
  }
  if (values.help) return { kind: 'help', text: helpText() };
  if (values.version) return { kind: 'version', text: version() };
  if (positionals.length > 0) {
    return {
      kind: 'error',
      message: `Unexpected argument "${positionals[0]}": ${COMMAND_NAME} takes only options (see --help).`,
    };
  }

  const fromFlags: Record<string, string> = {};
  for (const { name, flag } of SETTING_FLAGS) {
    const value = values[flag];
    if (value !== undefined) fromFlags[name] = String(value);
  }
  try {
    const config = loadSimulatorConfig({ ...env, ...fromFlags });
    return { kind: 'serve', config, warnings: unknownSettings(env) };
  } catch (error) {
    if (!(error instanceof SimulatorConfigError)) throw error;
    const setting = SETTING_FLAGS.find(({ name }) => name === error.setting);
    if (setting && Object.hasOwn(fromFlags, setting.name)) {
      return {
        kind: 'error',
        message: `Bad value for --${setting.flag} (${JSON.stringify(fromFlags[setting.name])}): ${error.problem}`,
      };
    }
    return { kind: 'error', message: `Configuration error: ${error.message}` };
  }
}
