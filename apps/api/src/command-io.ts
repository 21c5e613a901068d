/**
 * What a command line (`npm run operator`, `npm run review`) reads and writes: the process's own
 * when it runs as a program, a test's when the test calls it in its own process (test/command.ts).
 */
import { inspect } from 'node:util';
import { ConfigError, describeConfigError, loadConfig, type Config } from './config.ts';

export interface CommandIo {
  /** The settings (the process's environment). */
  env: Record<string, string | undefined>;
  /** A line for standard output, and one for standard error. */
  out: (line: string) => void;
  err: (line: string) => void;
  /** A password: typed unseen at a terminal, or the first line piped in. */
  readPassword: (prompt: string) => Promise<string>;
}

/**
 * The process's own input, output and settings; a command that asks for a password gives the
 * operators' reader (features/operators), which this shared layer does not import.
 */
export function processIo(
  readPassword: CommandIo['readPassword'] = () =>
    Promise.reject(new Error('This command asks for no password.')),
): CommandIo {
  return {
    env: process.env,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    readPassword,
  };
}

/** The app's settings, or undefined once what is wrong with them is said on standard error. */
export function settingsOrSay(io: CommandIo): Config | undefined {
  try {
    return loadConfig(io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(describeConfigError(error));
    return undefined;
  }
}

/** What a command says of an error it did not expect: what console.error would print of it. */
export function unexpected(error: unknown): string {
  return typeof error === 'string' ? error : inspect(error);
}
