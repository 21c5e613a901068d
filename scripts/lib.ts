/** Helpers shared by the repository's scripts (start, dev, test, CI). */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Lets every Node process started from here keep its compiled modules on disk and load them from
 * there next time (Node's module compile cache, TypeScript's type stripping included): a process
 * of the API loads some 500 modules, and the tests start hundreds of them. The cache is keyed by
 * each file's contents, so a changed file is compiled afresh. NODE_COMPILE_CACHE="" turns it off.
 */
/**
 * The Chromium the browser tests drive, Debian's own (never a downloaded one): CHROMIUM_PATH if
 * set, else Debian's headless shell (package chromium-headless-shell, the build Playwright itself
 * runs headless tests in, decision 008), else the full browser (package chromium).
 */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const shell = '/usr/bin/chromium-headless-shell';
  return fs.existsSync(shell) ? shell : '/usr/bin/chromium';
}

export function useCompileCache(): void {
  process.env.NODE_COMPILE_CACHE ??= path.join(ROOT, 'node_modules/.cache/node-compile-cache');
}

/** Runs a command to completion with inherited output; resolves with its exit code. */
export function run(command: string, args: string[], options: SpawnOptions = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: ROOT, ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The newest modification time of any file under the given paths. */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (entry: string) => {
    const stat = fs.statSync(entry, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const child of fs.readdirSync(entry)) {
        if (child !== 'node_modules' && child !== 'dist') visit(path.join(entry, child));
      }
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

const WEB_INPUTS = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/public',
  'apps/web/vite.config.ts',
  'apps/web/tooling',
  'packages/shared/src',
  'package.json',
].map((entry) => path.join(ROOT, entry));

const SIMULATOR_INPUTS = [
  'apps/simulator/src',
  'apps/simulator/package.json',
  'apps/simulator/tsconfig.build.json',
  'tsconfig.base.json',
].map((entry) => path.join(ROOT, entry));

/**
 * Builds the simulator's package (its `npm run build`, which `npm pack` runs as prepack) unless
 * dist/ is newer than every source it comes from: the unit tests and the package check
 * (scripts/simulator-package-check.ts) then pack one build with `--ignore-scripts`.
 */
export async function buildSimulatorIfNeeded(
  log: (line: string) => void = console.log,
): Promise<void> {
  const dir = path.join(ROOT, 'apps/simulator');
  const built = fs.statSync(path.join(dir, 'dist/server.js'), { throwIfNoEntry: false });
  if (built && built.mtimeMs >= newestMtime(SIMULATOR_INPUTS)) return;
  log('Building the simulator…');
  const code = await run('npm', ['run', 'build', '--silent'], { cwd: dir });
  if (code !== 0) throw new Error(`The simulator build failed (exit code ${code})`);
}

/** Builds the web app unless its build is newer than every source it comes from. */
export async function buildWebIfNeeded(log: (line: string) => void = console.log): Promise<void> {
  const built = fs.statSync(path.join(ROOT, 'apps/web/dist/index.html'), { throwIfNoEntry: false });
  if (built && built.mtimeMs >= newestMtime(WEB_INPUTS)) return;
  log('Building the web app…');
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const code = await run(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: path.join(ROOT, 'apps/web'),
    // Always the production build, even when called from a test run (where NODE_ENV is "test"
    // and React would otherwise be built in development mode).
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (code !== 0) throw new Error(`The web build failed (exit code ${code})`);
}

/**
 * Resolves once an HTTP GET on the URL answers 2xx, or rejects after the timeout, when the child
 * exits, or when the signal is aborted (with its reason).
 */
export async function waitForHttp(
  url: string,
  timeoutMs: number,
  child?: ChildProcess,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null)
      throw new Error(`${url}: the process exited with code ${child.exitCode}`);
    signal?.throwIfAborted();
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
