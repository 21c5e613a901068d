/** The command line (cli.ts, run by server.ts): every setting as a flag, --help, and clear refusals. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  SETTING_FLAGS,
  flagName,
  helpText,
  parseCommandLine,
  replayHelpText,
  type Command,
} from './cli.ts';
import { SETTING_NAMES, loadSimulatorConfig, type SettingName } from './config.ts';
import { startProcess } from './test/process.ts';

/** A valid value for each setting that is not its default. */
const SAMPLE: Record<SettingName, string> = {
  SIM_HOST: '0.0.0.0',
  SIM_REMOTE_CONTROL: 'true',
  SIMULATOR_PORT: '4321',
  LOG_LEVEL: 'debug',
  SIM_CONSUMER_KEY: 'key',
  SIM_CONSUMER_SECRET: 'secret',
  SIM_SHORTCODE: '600000',
  SIM_PASSKEY: 'passkey',
  SIM_TOKEN_TTL_S: '60',
  SIM_CALLBACK_DELAY_MS: '100',
  SIM_AUTO_APPROVE_S: '0',
  SIM_PROMPT_TIMEOUT_S: '30',
  SIM_PIN: '0000',
  SIM_BUSINESS_NAME: 'Duka',
  SIM_CALLBACK_TIMEOUT_MS: '500',
  SIM_CALLBACK_RETRIES: '2',
  SIM_CALLBACK_RETRY_BACKOFF_MS: '10',
  SIM_RESULT_STRINGS: 'true',
  SIM_RESULT_FAILURE_PARAMETER: 'true',
  SIM_RESULT_REFERENCE_ARRAY: 'true',
  SIM_QUEUE_TIMEOUT_NOTICE_MS: '1000',
  SIM_STRICT_LENGTHS: 'true',
  SIM_MAX_TIMESTAMP_SKEW_H: '2',
  SIM_REPEAT_RULE: 'false',
  SIM_INITIATOR_NAME: 'apiop37',
  SIM_INITIATOR_PASSWORD: 'Safaricom3021#',
  SIM_INITIATOR_LOCK_AFTER: '3',
  SIM_STRICT_CREDENTIALS: 'true',
  SIM_QR_RESPONSE_CODE: 'conversation-id',
  SIM_C2B_VALIDATION_TIMEOUT_MS: '2000',
  SIM_C2B_PRODUCTION_URLS: 'true',
  SIM_JOURNAL: 'journal.jsonl',
  SIM_STATE: 'state.json',
  SIM_PROXY: 'false',
  SIM_PROXY_CA_DIR: 'ca',
};

function served(command: Command) {
  if (command.kind !== 'serve')
    throw new Error(`expected to serve, got ${JSON.stringify(command)}`);
  return command.config;
}

function refused(command: Command): string {
  if (command.kind !== 'error') throw new Error(`expected an error, got ${command.kind}`);
  return command.message;
}

describe('the flags', () => {
  it('are named after the variables', () => {
    expect(flagName('SIM_CALLBACK_DELAY_MS')).toBe('callback-delay-ms');
    expect(flagName('SIMULATOR_PORT')).toBe('port');
    expect(flagName('SIM_HOST')).toBe('host');
    expect(flagName('LOG_LEVEL')).toBe('log-level');
  });

  it('are one per setting, all different, and none is --help or --version', () => {
    expect(SETTING_FLAGS.map(({ name }) => name)).toEqual(SETTING_NAMES);
    const flags = SETTING_FLAGS.map(({ flag }) => flag);
    expect(new Set([...flags, 'help', 'version']).size).toBe(flags.length + 2);
  });

  it.each(SETTING_NAMES)('set %s as its variable does', (name) => {
    const { flag, yesNo } = SETTING_FLAGS.find((setting) => setting.name === name)!;
    const value = SAMPLE[name];
    const argv = yesNo ? [value === 'true' ? `--${flag}` : `--no-${flag}`] : [`--${flag}`, value];
    const fromFlag = served(parseCommandLine(argv, {}));
    expect(fromFlag).toEqual(loadSimulatorConfig({ [name]: value }));
    expect(fromFlag).not.toEqual(loadSimulatorConfig({}));
  });

  it('win over the environment, which still applies where no flag is given', () => {
    const config = served(
      parseCommandLine(['--pin', '2222', '--no-repeat-rule', '--port=4000'], {
        SIM_PIN: '1111',
        SIM_REPEAT_RULE: 'true',
        SIM_BUSINESS_NAME: 'Duka',
      }),
    );
    expect(config).toMatchObject({
      pin: '2222',
      repeatRule: false,
      port: 4000,
      businessName: 'Duka',
    });
    expect(served(parseCommandLine([], { SIM_PIN: '1111' })).pin).toBe('1111');
  });
});

describe('--help', () => {
  it('lists every setting with its flag, its variable and its default', () => {
    for (const argv of [['--help'], ['-h'], ['--port', '1', '--help']]) {
      expect(parseCommandLine(argv, {})).toEqual({ kind: 'help', text: helpText() });
    }
    const text = helpText();
    for (const { name, flag, yesNo, fallback } of SETTING_FLAGS) {
      const line = text.split('\n').find((row) => row.includes(` ${name}, `));
      expect(line, name).toContain(yesNo ? `--[no-]${flag}` : `--${flag} <value>`);
      expect(line, name).toContain(fallback === undefined ? 'unset' : `default ${fallback}`);
    }
    expect(text).toContain('default 3001');
    expect(text).toContain('Address to listen on');
  });

  it('names the certificate a SecurityCredential is made with, and how to make one', () => {
    const text = helpText();
    expect(text).toContain('GET /_sim/certificate');
    const shipped = text.split('\n').find((line) => line.trim().endsWith('.pem'));
    expect(fs.readFileSync(shipped!.trim(), 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(text).toContain('openssl pkeyutl -encrypt -certin -inkey simulator.pem');
    expect(text).toContain('crypto.constants.RSA_PKCS1_PADDING');
  });
});

describe('replay', () => {
  it('takes a journal file and --to, in any order, with a timeout', () => {
    const to = 'http://127.0.0.1:3000/api/mpesa/callback/x';
    expect(parseCommandLine(['replay', 'j.jsonl', '--to', to], {})).toEqual({
      kind: 'replay',
      file: 'j.jsonl',
      to,
      timeoutMs: 10_000,
    });
    expect(
      parseCommandLine(['replay', `--to=${to}`, '--timeout-ms', '500', 'j.jsonl'], {}),
    ).toEqual({ kind: 'replay', file: 'j.jsonl', to, timeoutMs: 500 });
  });

  it('has its own --help, and the main --help names it', () => {
    expect(parseCommandLine(['replay', '--help'], {})).toEqual({
      kind: 'help',
      text: replayHelpText(),
    });
    expect(replayHelpText()).toContain('Usage: daraja-simulator replay <journal.jsonl> --to <URL>');
    expect(replayHelpText()).toContain('exits 0 when the receiver answered every callback');
    expect(helpText()).toContain('daraja-simulator replay <journal.jsonl> --to <URL>');
    expect(helpText()).toMatch(/Commands:\n {2}replay /);
  });

  it.each([
    [['replay'], 'replay needs a journal file: daraja-simulator replay <journal.jsonl> --to <URL>'],
    [['replay', 'j.jsonl'], 'replay needs --to <URL>, where to send the callbacks'],
    [['replay', 'j.jsonl', 'k.jsonl', '--to', 'http://x/'], 'Unexpected argument "k.jsonl"'],
    [
      ['replay', 'j.jsonl', '--to', 'localhost:3000'],
      '--to localhost:3000 must be an http or https URL.',
    ],
    [['replay', 'j.jsonl', '--to', 'not a url'], '--to not a url is not a URL'],
    [
      ['replay', 'j.jsonl', '--to', 'http://x/', '--timeout-ms', '0'],
      'Bad value for --timeout-ms ("0")',
    ],
    [
      ['replay', 'j.jsonl', '--to', 'http://x/', '--port', '1'],
      'Unknown option --port: daraja-simulator replay --help lists them.',
    ],
  ])('%j is refused with a message naming the problem', (argv, message) => {
    expect(refused(parseCommandLine(argv, {}))).toContain(message);
  });
});

describe('--version', () => {
  it("is the package's", () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8'),
    ) as { version: string };
    expect(parseCommandLine(['--version'], {})).toEqual({
      kind: 'version',
      text: manifest.version,
    });
  });
});

describe('a command line that makes no sense', () => {
  it.each([
    [['--bogus'], 'Unknown option --bogus: daraja-simulator --help lists them.'],
    [['--Port', '1'], 'Unknown option --Port'],
    [['--port'], "Option '--port <value>' argument missing"],
    [['--strict-lengths=yes'], "Option '--strict-lengths' does not take an argument"],
    [['--port', 'abc'], 'Bad value for --port ("abc"): '],
    [['--port', '70000'], 'Bad value for --port ("70000"): '],
    [['--pin', '12'], 'Bad value for --pin ("12"): '],
    [
      ['--host', 'http://0.0.0.0'],
      'Bad value for --host ("http://0.0.0.0"): must be an IP address',
    ],
    [['--log-level', 'loud'], 'Bad value for --log-level ("loud"): '],
    [['serve'], 'Unknown command "serve": daraja-simulator takes options, or the command replay'],
    [['--port', '1', 'extra'], 'Unexpected argument "extra"'],
    [
      ['--port', '-1'],
      '--port needs a value; one that starts with a dash is written --port=<value>: daraja-simulator --help lists the options.',
    ],
  ])('%j is refused with a message naming it', (argv, message) => {
    expect(refused(parseCommandLine(argv, {}))).toContain(message);
  });

  it('names the variable when the environment is at fault', () => {
    expect(refused(parseCommandLine(['--port', '1'], { SIM_PIN: '12' }))).toMatch(
      /^Configuration error: SIM_PIN /,
    );
  });
});

describe('a variable named like a setting that is none', () => {
  it('is named, with the setting it was likely meant to be', () => {
    const command = parseCommandLine([], {
      SIM_PORT: '4000',
      SIMULATOR_PIN: '0000',
      SIM_CALLBAK_DELAY_MS: '5',
      SIM_COLOUR: 'blue',
      SIM_PIN: '1111',
      PATH: '/usr/bin',
    });
    if (command.kind !== 'serve') throw new Error(command.kind);
    expect(command.config).toMatchObject({ port: 3001, pin: '1111', callbackDelayMs: 6000 });
    expect(command.warnings).toEqual([
      'SIMULATOR_PIN is not a setting; did you mean SIM_PIN? It is ignored.',
      'SIM_CALLBAK_DELAY_MS is not a setting; did you mean SIM_CALLBACK_DELAY_MS? It is ignored.',
      'SIM_COLOUR is not a setting of the simulator (--help lists them); it is ignored.',
      'SIM_PORT is not a setting; did you mean SIMULATOR_PORT? It is ignored.',
    ]);
    const quiet = parseCommandLine([], { SIM_PIN: '1111', LOG_LEVEL: 'warn' });
    expect(quiet.kind === 'serve' && quiet.warnings).toEqual([]);
  });

  it('is warned about at start-up, in the log', async () => {
    const sim = await startProcess({ SIM_PORT: '4000' });
    try {
      await expect
        .poll(sim.output)
        .toContain('SIM_PORT is not a setting; did you mean SIMULATOR_PORT? It is ignored.');
    } finally {
      await sim.kill();
    }
  });
});

describe('server.ts', () => {
  const server = path.join(import.meta.dirname, 'server.ts');
  const run = (...argv: string[]) =>
    spawnSync(process.execPath, [server, ...argv], { encoding: 'utf8', timeout: 15_000 });

  it('prints the help and exits 0', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: daraja-simulator [options]');
  });

  it('says what is wrong on stderr and exits 1', () => {
    const result = run('--port', 'abc');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Bad value for --port ("abc")');
  });

  it('can be run as a program (the package bin): it starts with a #! line', () => {
    expect(fs.readFileSync(server, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});
