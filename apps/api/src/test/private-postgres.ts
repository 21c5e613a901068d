/**
 * A PostgreSQL cluster of a test's own, for tests that stop, restart, pause or cut off the database:
 * the shared server in TEST_DATABASE_URL serves every other test file at the same time, so it is
 * never touched. Made from Debian's server binaries (/usr/lib/postgresql/<version>/bin) in a
 * temporary directory: initdb, then pg_ctl. initdb refuses to run as root, so as root (CI) every
 * command runs as the `postgres` user, in a directory given to that user.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './ports.ts';

const run = promisify(execFile);

const POSTGRESQL_ROOT = '/usr/lib/postgresql';
const SERVER_BINARIES = ['initdb', 'pg_ctl', 'postgres'] as const;
/** The user the cluster runs as when the tests run as root (initdb will not run as root). */
const SERVICE_USER = 'postgres';

export type StopMode = 'fast' | 'immediate';

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres, trusted without a password. */
  url: string;
  port: number;
  /** Starts the cluster (again) on the same port, and waits until it takes connections. */
  start(): Promise<void>;
  /** `fast` ends every session and shuts down cleanly; `immediate` is a crash (recovery at start). */
  stop(mode?: StopMode): Promise<void>;
  /** Stops, stays down `downMs`, starts again. */
  restart(options?: { mode?: StopMode; downMs?: number }): Promise<void>;
  /** Ends every client session (pg_terminate_backend); answers how many there were. */
  terminateAll(): Promise<number>;
  /**
   * Freezes the postmaster and every process under it (SIGSTOP): connections stay open and new
   * ones are accepted by the kernel, but nothing answers, as when a database host hangs.
   */
  pause(): Promise<void>;
  /** Lets a paused cluster carry on (SIGCONT). */
  resume(): void;
  /** Stops the cluster, however it is, and removes its directory. */
  destroy(): Promise<void>;
}

interface Binaries {
  bin: string;
  /** runuser, to run them as `postgres` when the tests run as root; undefined: run them directly. */
  runuser: string | undefined;
}

function findBinaries(): Binaries | string {
  const versions = fs.existsSync(POSTGRESQL_ROOT)
    ? fs
        .readdirSync(POSTGRESQL_ROOT)
        .filter((name) => /^[0-9]+(\.[0-9]+)?$/.test(name))
        .sort((x, y) => Number(x) - Number(y))
    : [];
  const version = versions.at(-1);
  if (version === undefined) {
    return `no PostgreSQL server binaries in ${POSTGRESQL_ROOT}/<version>/bin (install them with "apt-get install -y postgresql")`;
  }
  const bin = path.join(POSTGRESQL_ROOT, version, 'bin');
  const missing = SERVER_BINARIES.filter((name) => !isExecutable(path.join(bin, name)));
  if (missing.length > 0) return `${bin} has no ${missing.join(', ')}`;
  if (process.getuid?.() !== 0) return { bin, runuser: undefined };
  const runuser = ['/usr/sbin/runuser', '/usr/bin/runuser'].find(isExecutable);
  if (runuser === undefined) {
    return `the tests run as root, and initdb refuses root: runuser is needed to run it as ${SERVICE_USER}, and is missing`;
  }
  if (serviceUserIds() === undefined) {
    return `the tests run as root, and initdb refuses root: there is no "${SERVICE_USER}" user to run it as`;
  }
  return { bin, runuser };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function serviceUserIds(): { uid: number; gid: number } | undefined {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${SERVICE_USER}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  return uid && gid ? { uid: Number(uid), gid: Number(gid) } : undefined;
}

/** Why a private cluster cannot be made on this machine, or undefined when it can. */
export function privatePostgresUnavailable(): string | undefined {
  const found = findBinaries();
  return typeof found === 'string' ? found : undefined;
}

/** Makes a new cluster in a temporary directory and starts it (a second or two). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const found = findBinaries();
  if (typeof found === 'string') throw new Error(`no private PostgreSQL: ${found}`);
  const { bin, runuser } = found;

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  if (runuser !== undefined) {
    const ids = serviceUserIds()!;
    fs.chownSync(dir, ids.uid, ids.gid);
  }
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  const logTail = () => {
    try {
      return fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '(no log)';
    }
  };
  /** One of the server's commands, as the user that owns the cluster. */
  const command = async (name: (typeof SERVER_BINARIES)[number], args: string[]) => {
    const file = path.join(bin, name);
    const [program, argv] =
      runuser === undefined ? [file, args] : [runuser, ['-u', SERVICE_USER, '--', file, ...args]];
    try {
      await run(program, argv, { cwd: dir, timeout: 60_000 });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(
        `${name} ${args.join(' ')} failed: ${(stderr || stdout || String(error)).trim()}\n` +
          `server log:\n${logTail()}`,
        { cause: error },
      );
    }
  };

  await command('initdb', [
    '--pgdata',
    data,
    '--username',
    'postgres',
    '--auth',
    'trust',
    '--encoding',
    'UTF8',
    '--locale',
    'C',
    '--no-sync',
  ]);
  // Written as whoever runs the tests (root may write the service user's file).
  fs.appendFileSync(
    path.join(data, 'postgresql.conf'),
    [
      '',
      "listen_addresses = '127.0.0.1'",
      `port = ${port}`,
      `unix_socket_directories = '${dir}'`,
      'max_connections = 40',
      'shared_buffers = 16MB',
      // Its data is thrown away: durability only costs time.
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      '',
    ].join('\n'),
  );

  let running = false;
  let paused: number[] = [];

  const postmasterPid = (): number | undefined => {
    try {
      const pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  };

  const resume = () => {
    // The children first: the postmaster, once going, would find them still frozen.
    for (const pid of [...paused].reverse()) signal(pid, 'SIGCONT');
    paused = [];
  };

  const stop = async (mode: StopMode = 'fast') => {
    resume();
    await command('pg_ctl', ['stop', '--pgdata', data, '--mode', mode, '--wait', '--silent']);
    running = false;
  };

  const start = async () => {
    await command('pg_ctl', [
      'start',
      '--pgdata',
      data,
      '--log',
      logFile,
      '--wait',
      '--timeout',
      '30',
      '--silent',
    ]);
    running = true;
  };

  // If the test process ends without destroy() (a crash, a forgotten afterAll), the cluster must
  // not outlive it: SIGQUIT is PostgreSQL's immediate shutdown.
  const leftBehind = () => {
    resume();
    const pid = postmasterPid();
    if (running && pid !== undefined) signal(pid, 'SIGQUIT');
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // the server was still removing its own files: what is left is in the temporary directory
    }
  };
  process.once('exit', leftBehind);

  await start();

  return {
    url,
    port,
    start,
    stop,
    async restart({ mode = 'fast', downMs = 0 } = {}) {
      await stop(mode);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    async terminateAll() {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      await client.connect();
      try {
        const { rowCount } = await client.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
           where pid <> pg_backend_pid() and backend_type = 'client backend'`,
        );
        return rowCount ?? 0;
      } finally {
        await client.end();
      }
    },
    async pause() {
      const pid = postmasterPid();
      if (!running || pid === undefined) throw new Error('the cluster is not running');
      // The postmaster first, and its children once it is really stopped: it can then start no
      // new one (a fork under way when the signal came finishes before it stops).
      signal(pid, 'SIGSTOP');
      paused.push(pid);
      await untilStopped(pid);
      for (const child of childrenOf(pid)) {
        signal(child, 'SIGSTOP');
        paused.push(child);
      }
    },
    resume,
    async destroy() {
      process.removeListener('exit', leftBehind);
      try {
        if (running) await stop('immediate');
      } catch {
        leftBehind();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    // Gone already (a backend that ended): nothing to stop or wake.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** A process's parent and state, from /proc/<pid>/stat ("pid (name) state ppid …"). */
function processStat(pid: string | number): { state: string; ppid: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name may hold spaces and parentheses: the fields after it follow the last ')'.
    const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^[0-9]+$/.test(name) && processStat(name)?.ppid === pid)
    .map(Number);
}

async function untilStopped(pid: number): Promise<void> {
  const deadline = Date.now() + 2000;
  while (processStat(pid)?.state !== 'T') {
    if (Date.now() > deadline) throw new Error(`postmaster ${pid} did not stop on SIGSTOP`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
