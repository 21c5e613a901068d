/** Test harness: server.ts as its own process (as `npx daraja-simulator` runs it), to kill and restart. */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { serverBundle } from '../../../../scripts/server-bundle.ts';

/**
 * The proxy's certificate authority of every process started here, unless a test names another:
 * not the user's own folder (~/.daraja-simulator), which a test must not write to.
 */
export const TEST_CA_DIR = path.join(os.tmpdir(), 'daraja-simulator-test-ca');

/** The caller's environment without its HOST or SIM_* settings, so that only the test's apply. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'HOST' && !name.startsWith('SIM')),
  );
  return { ...inherited, LOG_LEVEL: 'warn', SIM_PROXY_CA_DIR: TEST_CA_DIR, ...env };
}

export interface SimulatorProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Sends the signal and waits for the process to end. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts server.ts with these settings on a port of its own choosing, and waits until it answers.
 * A port chosen here and handed to it could be taken meanwhile by another test file's server,
 * which would then answer for it while it exited: the process says which port it took ("listening
 * on", logged at info) and that one is asked.
 */
export async function startProcess(env: Record<string, string>): Promise<SimulatorProcess> {
  let output = '';
  // server.ts, bundled (scripts/server-bundle.ts).
  const child = spawn(process.execPath, [await serverBundle('simulator')], {
    env: cleanEnv({ LOG_LEVEL: 'info', ...env, SIMULATOR_PORT: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server.ts exited: ${output}`);
    // On whatever SIM_HOST says (0.0.0.0 included): asked on 127.0.0.1, as before.
    const port = /listening on http:\/\/\S+?:(\d+)"/.exec(output)?.[1];
    if (port) {
      const url = `http://127.0.0.1:${port}`;
      const answer = await fetch(`${url}/_sim/info`).catch(() => undefined);
      if (answer?.ok) return { url, child, output: () => output, kill };
    }
    if (Date.now() > deadline) {
      await kill('SIGKILL');
      throw new Error(`server.ts did not answer: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs server.ts to its end (a refused start, the replay command) and returns what it said. Not
 * spawnSync: a receiver in this process must go on answering meanwhile.
 */
export async function runToEnd(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [await serverBundle('simulator'), ...argv], {
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 15_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}
