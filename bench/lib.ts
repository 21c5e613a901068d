/**
 * What the benches share: the server processes they start and watch through /proc, our API
 * started as `npm start` starts it, the seeded payments they read (kept between runs on request,
 * in one place for both), and the check that every request of a scenario got the answer it
 * expects before any figure of it is written down.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import pg from 'pg';
import { API_NODE_FLAGS } from '../apps/api/src/node-flags.ts';
import { freePort } from '../apps/api/src/test/ports.ts';
import { TEST_DATABASE_URL } from '../apps/api/src/test/test-db.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export type Dialect = 'sqlite' | 'postgres';

/**
 * A scenario some of whose requests did not get the answer it expects: its figures would measure
 * the failures, so the run stops (exit 1) without writing any.
 */
export class RequestsFailed extends Error {
  override name = 'RequestsFailed';
}

/** Whether `status` is what a scenario expects: the status it names, or else any 2xx. */
const isExpected = (status: number, expectStatus: number | undefined) =>
  expectStatus === undefined ? status >= 200 && status < 300 : status === expectStatus;

/**
 * Holds a scenario's autocannon results (one per server it loads) to the status it expects, any
 * 2xx unless it names one: another status, a connection error or a timeout throws RequestsFailed,
 * naming the scenario and the counts.
 */
export function requireExpectedAnswers(
  scenario: string,
  results: readonly autocannon.Result[],
  expectStatus?: number,
): void {
  const statuses = new Map<number, number>();
  let errors = 0;
  let timeouts = 0;
  for (const result of results) {
    // autocannon counts a timeout among the errors too.
    errors += result.errors;
    timeouts += result.timeouts;
    for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
      statuses.set(Number(status), (statuses.get(Number(status)) ?? 0) + (stats.count ?? 0));
    }
  }
  const unexpected = [...statuses].filter(([status]) => !isExpected(status, expectStatus));
  const failed = unexpected.reduce((sum, [, count]) => sum + count, 0) + errors;
  if (failed === 0) return;
  const answered = [...statuses.values()].reduce((sum, count) => sum + count, 0);
  const n = (count: number) => count.toLocaleString('en-US');
  const why = [
    ...unexpected.map(([status, count]) => `${n(count)} answered ${status}`),
    ...(errors > 0 ? [`${n(errors)} got no answer (${n(timeouts)} of them timed out)`] : []),
  ];
  throw new RequestsFailed(
    `${scenario}: ${n(failed)} of ${n(answered + errors)} requests failed: ${why.join(', ')}; ` +
      `it expects ${expectStatus ?? 'a 2xx answer'} to each`,
  );
}

/** Throws RequestsFailed, naming the scenario, when one request's answer is not the expected. */
export function requireExpectedAnswer(
  scenario: string,
  request: string,
  status: number,
  body: string,
  expectStatus?: number,
): void {
  if (isExpected(status, expectStatus)) return;
  throw new RequestsFailed(
    `${scenario}: ${request} answered ${status}, where it expects ${expectStatus ?? 'a 2xx answer'}: ${body.slice(0, 300)}`,
  );
}

/**
 * What a bench does with an error that ends it: a scenario whose requests failed is said in one
 * line, exit code 1, before any figure is written; any other error is thrown on.
 */
export function stopOnFailedRequests(error: unknown): void {
  if (!(error instanceof RequestsFailed)) throw error;
  console.error(`\nFAILED ${error.message}. No figure was written.`);
  process.exitCode = 1;
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** Runs a Node script to its end, its output shown; rejects unless it exits 0. */
export function runNode(args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`)),
    );
  });
}

/** A server in a process of its own on 127.0.0.1, with what /proc says of it. */
export class ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  private output = '';
  private constructor(child: ChildProcess, url: string) {
    this.child = child;
    this.url = url;
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  /**
   * Starts `node <args>` and waits until `ready` answers. Its standard output is piped for the
   * caller to read when `readStdout` is set, and thrown away otherwise.
   */
  static async start(
    name: string,
    args: string[],
    port: number,
    env: Record<string, string>,
    { ready = '/', readStdout = false } = {},
  ): Promise<ServerProcess> {
    const child = spawn(process.execPath, args, {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', readStdout ? 'pipe' : 'ignore', 'pipe'],
    });
    const server = new ServerProcess(child, `http://127.0.0.1:${port}`);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited at start-up:\n${server.output}`);
      try {
        if ((await fetch(server.url + ready)).ok) return server;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${name} did not start:\n${server.output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** CPU time used so far, in microseconds (user and system). */
  cpuMicros(): number {
    const stat = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
  }

  rssMb(): number {
    return this.statusMb('VmRSS');
  }

  peakRssMb(): number {
    return this.statusMb('VmHWM');
  }

  private statusMb(field: 'VmRSS' | 'VmHWM'): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/**
 * Our API as `npm start` runs it (server.ts with API_NODE_FLAGS), on these settings. Unless they
 * say otherwise, no Daraja listens where it would call, and reconciliation waits an hour: the
 * seeded pending payments stay as they are.
 */
export async function startApi(
  name: string,
  env: Record<string, string>,
  options: { readStdout?: boolean } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  return ServerProcess.start(
    name,
    [...API_NODE_FLAGS, path.join(ROOT, 'apps/api/src/server.ts')],
    port,
    {
      HOST: '127.0.0.1',
      PORT: String(port),
      WEB_DIST_DIR: '/nonexistent-web-dist',
      MPESA_ENV: 'simulator',
      MPESA_BASE_URL: `http://127.0.0.1:${await freePort()}`,
      MPESA_CALLBACK_URL: `http://127.0.0.1:${port}`,
      RECONCILE_INTERVAL_MS: '3600000',
      ...env,
    },
    { ready: '/api/health', ...options },
  );
}

/** Where `--keep` keeps the seeded payments between runs, for either bench. */
const KEPT_DIR = path.join(tmpdir(), 'mpesa-bench-history');
const KEPT_SCHEMA = 'bench_history';

async function countKept(dialect: Dialect, dir: string, schema: string): Promise<number | null> {
  try {
    if (dialect === 'sqlite') {
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(path.join(dir, 'mpesa.sqlite'), { readOnly: true });
      const { n } = db.prepare('select count(*) as n from transactions').get() as { n: number };
      db.close();
      return n;
    }
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        `select count(*) as n from ${schema}.transactions`,
      );
      return Number(rows[0]!.n);
    } finally {
      await client.end();
    }
  } catch {
    return null;
  }
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

/**
 * A database of `count` seeded payments, as the API's settings (`npm run db:seed`, seed 9). With
 * `keep` a kept copy of exactly that many is used as it is, and what is seeded is kept for the
 * next run; without it, it is seeded afresh, in a folder or schema of this run's own (two runs at
 * once never share one), and removed by `cleanUp`.
 */
export async function seededPayments(
  dialect: Dialect,
  count: number,
  keep: boolean,
): Promise<{ env: Record<string, string>; cleanUp: () => Promise<void> }> {
  const dir =
    dialect === 'postgres'
      ? ''
      : keep
        ? KEPT_DIR
        : mkdtempSync(path.join(tmpdir(), 'mpesa-bench-'));
  const schema = keep ? KEPT_SCHEMA : `bench_run_${process.pid}_${Date.now().toString(36)}`;
  const env: Record<string, string> =
    dialect === 'sqlite'
      ? { DATA_DIR: dir }
      : { DATABASE_URL: TEST_DATABASE_URL!, DATABASE_SCHEMA: schema };
  if (!(keep && (await countKept(dialect, dir, schema)) === count)) {
    if (dialect === 'sqlite') {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    } else {
      await dropSchema(schema);
    }
    const seed = path.join(ROOT, 'apps/api/src/seed/seed-cli.ts');
    await runNode([seed, '--count', String(count), '--seed', '9'], env);
    if (dialect === 'postgres') {
      // As autovacuum would a little later: the visibility map lets index-only scans skip rows.
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`vacuum analyze ${schema}.transactions`);
      await client.end();
    }
  }
  return {
    env,
    cleanUp: async () => {
      if (keep) return;
      if (dialect === 'sqlite') rmSync(dir, { recursive: true, force: true });
      else await dropSchema(schema);
    },
  };
}
