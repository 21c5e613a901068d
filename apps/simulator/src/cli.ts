/**
 * The command line of `daraja-simulator` (server.ts runs it). Every setting of config.ts is also a
 * flag named after its variable (SIM_CALLBACK_DELAY_MS → --callback-delay-ms, SIMULATOR_PORT →
 * --port, LOG_LEVEL → --log-level), yes/no settings as --x and --no-x; a flag wins over the
 * variable. It only decides what to do; server.ts does it.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import {
  SETTING_HELP,
  SETTING_NAMES,
  SimulatorConfigError,
  loadSimulatorConfig,
  settingDefaults,
  type SettingName,
  type SimulatorConfig,
} from './config.ts';

export const COMMAND_NAME = 'daraja-simulator';

export type Command =
  | { kind: 'serve'; config: SimulatorConfig }
  | { kind: 'help'; text: string }
  | { kind: 'version'; text: string }
  | { kind: 'error'; message: string };

/** SIM_CALLBACK_DELAY_MS → callback-delay-ms, SIMULATOR_PORT → port, LOG_LEVEL → log-level. */
export function flagName(setting: SettingName): string {
  return setting
    .replace(/^SIM(?:ULATOR)?_/, '')
    .toLowerCase()
    .replaceAll('_', '-');
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
    '',
    "An offline Daraja for M-PESA Express (STK push): OAuth, push, query and callbacks as Daraja's",
    'sandbox answers them, test numbers that force each outcome, a control API under /_sim/ and a',
    'virtual phone on its home page.',
    '',
    'Options (each is also an environment variable; a flag wins over the variable):',
    ...rows,
    `  ${'-h, --help'.padEnd(36)} This help.`,
    `  ${'-v, --version'.padEnd(36)} The version.`,
  ].join('\n');
}

/** Node's wording names the option but goes on about positionals; ours points to --help. */
function parseError(error: unknown): string {
  const { code, message } = error as { code?: string; message: string };
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(message)?.[1] ?? message;
    return `Unknown option ${option}: ${COMMAND_NAME} --help lists them.`;
  }
  return `${message}: ${COMMAND_NAME} --help lists the options.`;
}

/** What the command line asks for, with the environment's settings under the flags'. */
export function parseCommandLine(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): Command {
  // A first word that is not a flag names a subcommand; there is none yet (`replay` is to come).
  const first = argv[0];
  if (first !== undefined && !first.startsWith('-')) {
    return {
      kind: 'error',
      message: `Unknown command "${first}": ${COMMAND_NAME} takes only options (see --help).`,
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
    return { kind: 'serve', config: loadSimulatorConfig({ ...env, ...fromFlags }) };
  } catch (error) {
    if (!(error instanceof SimulatorConfigError)) throw error;
    const setting = SETTING_FLAGS.find(({ name }) => name === error.setting);
    if (setting && setting.name in fromFlags) {
      return {
        kind: 'error',
        message: `Bad value for --${setting.flag} (${JSON.stringify(fromFlags[setting.name])}): ${error.problem}`,
      };
    }
    return { kind: 'error', message: `Configuration error: ${error.message}` };
  }
}
