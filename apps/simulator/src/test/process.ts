/** Test harness: server.ts as its own process (as `npx daraja-simulator` runs it), to kill and restart. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const SERVER = path.join(import.meta.dirname, '..', 'server.ts');

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

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

/** Starts server.ts with these settings on a free port, and waits until it answers. */
export async function startProcess(env: Record<string, string>): Promise<SimulatorProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [SERVER], {
    env: cleanEnv({ ...env, SIMULATOR_PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const running: SimulatorProcess = {
    url,
    child,
    output: () => output,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server.ts exited: ${output}`);
    try {
      const answer = await fetch(`${url}/_sim/info`);
      if (answer.ok) return running;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      await running.kill('SIGKILL');
      throw new Error(`server.ts did not answer: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs server.ts to its end (a refused start, the replay command) and returns what it said. Not
 * spawnSync: a receiver in this process must go on answering meanwhile.
 */
export function runToEnd(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [SERVER, ...argv], {
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
