/**
 * A command line (`operatorCommand`, `reviewCommand`) called in the test's own process, as its
 * program would run it: `input` is what was piped to it, and `output` its standard output followed
 * by its standard error, a line each. Starting the program takes a second of CPU; each command's
 * test file still starts it once, for what only a process shows (stdin, the exit code).
 */
import type { CommandIo } from '../command-io.ts';

export async function called(
  command: (args: string[], io: CommandIo) => Promise<number>,
  args: string[],
  { env, input = '' }: { env: Record<string, string | undefined>; input?: string },
): Promise<{ code: number; output: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(args, {
    env,
    out: (line) => out.push(`${line}\n`),
    err: (line) => err.push(`${line}\n`),
    // As the program reads a pipe: its first line.
    readPassword: async () => input.split(/\r?\n/)[0] ?? '',
  });
  return { code, output: out.join('') + err.join('') };
}
