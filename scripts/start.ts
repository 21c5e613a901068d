/**
 * `npm start`: builds the web app if needed, then runs the Daraja simulator (when MPESA_ENV is
 * "simulator", the default) and the API with the web app, and prints where they are.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT, buildWebIfNeeded, waitForHttp } from './lib.ts';
import { API_NODE_FLAGS } from '../apps/api/src/node-flags.ts';

const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
const simulated = (env.MPESA_ENV ?? 'simulator') === 'simulator';
const host = env.HOST ?? '127.0.0.1';
const reachableHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
const port = env.PORT ?? '3000';
const simulatorPort = env.SIMULATOR_PORT ?? '3001';
/** The simulator's addresses that include 127.0.0.1, where the API and this script reach it. */
const SIM_HOSTS_WITH_LOOPBACK = ['127.0.0.1', '0.0.0.0', '::'];
const simHost = env.SIM_HOST?.trim() || '127.0.0.1';
if (simulated && !SIM_HOSTS_WITH_LOOPBACK.includes(simHost)) {
  console.error(
    `SIM_HOST=${simHost} leaves the simulator off 127.0.0.1, where the app looks for it: use ` +
      '127.0.0.1, 0.0.0.0 or ::, or run it alone with "npm run simulator".',
  );
  process.exit(1);
}

const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => process.exit(code), 5000);
  timer.unref();
  Promise.all(
    children.map((child) =>
      child.exitCode === null ? new Promise((r) => child.once('exit', r)) : null,
    ),
  ).then(() => process.exit(code));
}

function start(name: string, entry: string, flags: readonly string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...flags, path.join(ROOT, entry)], {
    env,
    stdio: 'inherit',
    cwd: ROOT,
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${name} stopped (${signal ?? `exit code ${code}`}); stopping everything.`);
      stopAll(code || 1);
    }
  });
  children.push(child);
  return child;
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

try {
  await buildWebIfNeeded();
  if (simulated) {
    // The simulator ignores HOST: it listens on SIM_HOST (127.0.0.1 by default; 0.0.0.0 and :: include
    // it), which is where this script and the API look for it.
    const simulator = start('The Daraja simulator', 'apps/simulator/src/server.ts');
    await waitForHttp(`http://127.0.0.1:${simulatorPort}/_sim/info`, 20_000, simulator);
  }
  const api = start('The API', 'apps/api/src/server.ts', API_NODE_FLAGS);
  await waitForHttp(`http://${reachableHost}:${port}/api/health`, 30_000, api);
} catch (error) {
  console.error(`Could not start: ${(error as Error).message}`);
  stopAll(1);
}

if (!stopping) {
  console.log('');
  console.log(`  M-PESA app           http://${reachableHost}:${port}`);
  if (simulated) {
    console.log(
      `  Daraja simulator     http://127.0.0.1:${simulatorPort}   (virtual phone and request log)`,
    );
    console.log('');
    console.log(
      '  Payments are simulated. Pay with 0700000000 for a success, 0700001032 for a cancel;',
    );
    console.log('  the README lists every test number. Press Ctrl+C to stop.');
  } else {
    console.log(`  M-PESA environment   ${env.MPESA_ENV}`);
  }
  console.log('');
}
