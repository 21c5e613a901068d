/**
 * The product's processes as `npm start` and `npm run dev` run them: their settings, the simulator
 * and the API started in order, and a group that stops together.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { DEFAULT_DATA_DIR } from '../apps/api/src/config.ts';
import { API_NODE_FLAGS } from '../apps/api/src/node-flags.ts';
import { ROOT, waitForHttp } from './lib.ts';

/** Where the API and the simulator run, read from the environment. */
export interface ProductSettings {
  /** The environment the processes get: this one, with LOG_LEVEL "warn" unless set. */
  env: NodeJS.ProcessEnv;
  /** MPESA_ENV is "simulator" (the default): the simulator runs too. */
  simulated: boolean;
  /** The API's HOST. */
  host: string;
  /** Where this machine reaches the API: its HOST, or 127.0.0.1 when it listens on every address. */
  reachableHost: string;
  port: string;
  simulatorPort: string;
}

/** The simulator's addresses that include 127.0.0.1, where the API and the scripts reach it. */
const SIM_HOSTS_WITH_LOOPBACK = ['127.0.0.1', '0.0.0.0', '::'];

/** Reads the settings; says why and exits when they cannot work together. */
export function productSettings(): ProductSettings {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
  const simulated = (env.MPESA_ENV ?? 'simulator') === 'simulator';
  const host = env.HOST ?? '127.0.0.1';
  // The simulator ignores HOST: it listens on SIM_HOST (127.0.0.1 by default; 0.0.0.0 and ::
  // include it), which is where the scripts and the API look for it.
  const simHost = env.SIM_HOST?.trim() || '127.0.0.1';
  if (simulated && !SIM_HOSTS_WITH_LOOPBACK.includes(simHost)) {
    console.error(
      `SIM_HOST=${simHost} leaves the simulator off 127.0.0.1, where the app looks for it: use ` +
        '127.0.0.1, 0.0.0.0 or ::, or run it alone with "npm run simulator".',
    );
    process.exit(1);
  }
  // The simulator's proxy mode keeps its certificate authority in a folder (by default in the
  // home folder, for the simulator used alone): under the product, beside the database instead.
  if (simulated && env.SIM_PROXY_CA_DIR === undefined) {
    env.SIM_PROXY_CA_DIR = path.join(
      path.resolve(env.DATA_DIR?.trim() || DEFAULT_DATA_DIR),
      'simulator-proxy-ca',
    );
  }
  return {
    env,
    simulated,
    host,
    reachableHost: host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host,
    port: env.PORT ?? '3000',
    simulatorPort: env.SIMULATOR_PORT ?? '3001',
  };
}

/**
 * The processes a script runs, which stop together: on Ctrl+C or SIGTERM, and when one of them
 * stops on its own (it says which, and everything stops with an error).
 */
export class ProcessGroup {
  readonly #children: ChildProcess[] = [];
  readonly #closers: Array<() => Promise<void>> = [];
  #stopping = false;

  constructor() {
    process.on('SIGINT', () => this.stop(0));
    process.on('SIGTERM', () => this.stop(0));
  }

  get stopping(): boolean {
    return this.#stopping;
  }

  /** Runs one of the repository's files (`entry`, from the root) with Node.js and the given flags. */
  start(
    name: string,
    entry: string,
    flags: readonly string[],
    options: { env: NodeJS.ProcessEnv; stdout?: 'inherit' | 'pipe' },
  ): ChildProcess {
    const child = spawn(process.execPath, [...flags, path.join(ROOT, entry)], {
      env: options.env,
      stdio: ['inherit', options.stdout ?? 'inherit', 'inherit'],
      cwd: ROOT,
    });
    child.on('exit', (code, signal) => {
      if (!this.#stopping) {
        console.error(`${name} stopped (${signal ?? `exit code ${code}`}); stopping everything.`);
        this.stop(code || 1);
      }
    });
    this.#children.push(child);
    return child;
  }

  /** Something else to close when the group stops (a server running in this process). */
  onStop(close: () => Promise<void>): void {
    this.#closers.push(close);
  }

  /** Stops every process (SIGTERM), waits for them for up to 5 s, and exits with the code. */
  stop(code: number): void {
    if (this.#stopping) return;
    this.#stopping = true;
    for (const child of this.#children) if (child.exitCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => process.exit(code), 5000);
    timer.unref();
    void Promise.allSettled([
      ...this.#closers.map((close) => close()),
      ...this.#children.map((child) =>
        child.exitCode === null && child.signalCode === null
          ? new Promise((resolve) => child.once('exit', resolve))
          : null,
      ),
    ]).then(() => process.exit(code));
  }
}

/** What Node.js prints when a file it runs with --watch fails; it then waits for a change. */
const WATCH_FAILED = 'Failed running ';

/**
 * Starts one process and waits until `readyUrl` answers. With `watch`, Node.js restarts it when a
 * file it imported changes (and keeps the output: three processes share the terminal). A watched
 * process that fails does not exit, Node.js waits for a change: its output is read for Node's
 * line saying so, which fails the start at once rather than after the timeout.
 */
async function startOne(
  group: ProcessGroup,
  settings: ProductSettings,
  spec: { name: string; entry: string; flags: readonly string[]; readyUrl: string },
  watch: boolean,
): Promise<void> {
  const failed = new AbortController();
  const child = group.start(
    spec.name,
    spec.entry,
    watch ? [...spec.flags, '--watch', '--watch-preserve-output'] : spec.flags,
    { env: settings.env, stdout: watch ? 'pipe' : 'inherit' },
  );
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    if (lines.some((line) => line.includes(WATCH_FAILED)))
      failed.abort(new Error(`${spec.name} failed (its error is above)`));
  });
  await waitForHttp(spec.readyUrl, 30_000, child, failed.signal);
}

/**
 * Starts the simulator (in simulator mode), then the API, each once the one before answers; throws
 * when one does not start.
 */
export async function startProduct(
  group: ProcessGroup,
  settings: ProductSettings,
  { watch }: { watch: boolean },
): Promise<void> {
  if (settings.simulated) {
    await startOne(
      group,
      settings,
      {
        name: 'The Daraja simulator',
        entry: 'apps/simulator/src/server.ts',
        flags: [],
        readyUrl: `http://127.0.0.1:${settings.simulatorPort}/_sim/info`,
      },
      watch,
    );
  }
  await startOne(
    group,
    settings,
    {
      name: 'The API',
      entry: 'apps/api/src/server.ts',
      flags: API_NODE_FLAGS,
      readyUrl: `http://${settings.reachableHost}:${settings.port}/api/health`,
    },
    watch,
  );
}

/**
 * Prints where everything is, one row per address ([name, url, note]) and the simulator's (in
 * simulator mode), then what to pay with (or which M-PESA is used) and how to stop.
 */
export function printReady(
  settings: ProductSettings,
  rows: Array<[name: string, url: string, note?: string]>,
  simulatorNote = '(virtual phone and request log)',
): void {
  const simulator: typeof rows = settings.simulated
    ? [['Daraja simulator', `http://127.0.0.1:${settings.simulatorPort}`, simulatorNote]]
    : [];
  // One write, so that whoever reads the output (a person, a test) never sees half of it.
  const lines = [''];
  for (const [name, url, note] of [...rows, ...simulator]) {
    lines.push(`  ${name.padEnd(20)} ${note ? `${url}   ${note}` : url}`);
  }
  if (settings.simulated) {
    lines.push(
      '',
      '  Payments are simulated. Pay with 0700000000 for a success, 0700001032 for a cancel;',
      '  the README lists every test number. Press Ctrl+C to stop.',
    );
  } else {
    lines.push(`  ${'M-PESA environment'.padEnd(20)} ${settings.env.MPESA_ENV}`);
  }
  console.log(`${lines.join('\n')}\n`);
}
