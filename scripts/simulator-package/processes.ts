/**
 * The simulator package check's processes: every command runs with this Node first on PATH and
 * without the variables that would point npm back at this repository; a failed check is a
 * CheckFailed, printed without its stack.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * What an `npm test` around us passes down and would point npm back at this repository (its folder,
 * its package, its workspaces). npm's other settings (registry, cache, proxy) are kept.
 */
const PROJECT_NPM_VARIABLES =
  /^npm_(package_|lifecycle_|command$|execpath$|node_execpath$|config_(local_prefix|prefix|workspaces?|include_workspace_root|call|yes)$)/i;

/**
 * The environment of every command run here: this Node first on PATH (so that npm, npx and the
 * package's `#!/usr/bin/env node` run on it, not on an older system Node), without those variables.
 */
const env: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !PROJECT_NPM_VARIABLES.test(name)),
);
env.PATH = [path.dirname(process.execPath), process.env.PATH].join(path.delimiter);

export class CheckFailed extends Error {}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

/** Runs a command to completion, collecting its output; fails with that output if it fails. */
export function exec(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve(stdout);
      else
        reject(
          new CheckFailed(
            `${command} ${args.join(' ')} (in ${cwd}) failed with ${code ?? signal}:\n${stdout}${stderr}`,
          ),
        );
    });
  });
}

/** The empty folder must have no package.json above it, or npm would install into that project. */
export function checkNoProjectAbove(dir: string) {
  for (let at = path.dirname(dir); ; at = path.dirname(at)) {
    check(
      !fs.existsSync(path.join(at, 'package.json')),
      `${at} holds a package.json: the check needs a temporary folder outside any project (set TMPDIR)`,
    );
    if (path.dirname(at) === at) return;
  }
}

/** `npx daraja-simulator …` in the folder, in its own process group so that all of it can be stopped. */
export function startSimulatorProcess(
  appDir: string,
  args: string[],
): { child: ChildProcess; output: () => string } {
  const child = spawn('npx', ['--no', '--', 'daraja-simulator', ...args], {
    cwd: appDir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** The URL the simulator says it listens on (it was given port 0: any free one). */
export async function listeningUrl(child: ChildProcess, output: () => string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = /Daraja simulator listening on (http:\/\/[^\s"]+)/.exec(output());
    if (found) return found[1]!;
    check(child.exitCode === null, `daraja-simulator exited with code ${child.exitCode}`);
    check(Date.now() < deadline, 'daraja-simulator did not say where it listens within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
    return Promise.resolve();
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return Promise.resolve(); // already gone
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }, 5000);
  return exited.finally(() => clearTimeout(timer));
}
