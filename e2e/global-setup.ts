/**
 * Starts the whole product for the browser tests, as `npm start` would but on free ports with a
 * throw-away data folder: the simulator, then the API serving the built web app. One such stack per
 * worker (the config's maxWorkers), all started at once: test files run side by side, each on its
 * worker's stack (stack.ts), so that no two files ever share a simulator, its clock or a database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWebIfNeeded, waitForHttp } from '../scripts/lib.ts';
import { serverBundle, type BundledServer } from '../scripts/server-bundle.ts';

export interface Stack {
  appUrl: string;
  simulatorUrl: string;
  /** The API's SQLite file, for tests that need many payments at once. */
  databaseFile: string;
  /** An origin the API takes browser calls from (CORS_ORIGINS); nothing listens there until a test does. */
  otherOriginUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One per worker: VITEST_POOL_ID 1 uses the first. */
    stacks: Stack[];
  }
}

/** `count` local ports nothing listens on, all different: each is held until all are found. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = net.createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    }),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

async function startStack(
  [port, simulatorPort, otherOriginPort]: number[],
  children: ChildProcess[],
  dataDirs: string[],
): Promise<Stack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-e2e-'));
  dataDirs.push(dataDir);
  const otherOriginUrl = `http://127.0.0.1:${otherOriginPort}`;
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    SIMULATOR_PORT: String(simulatorPort),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    MPESA_ENV: 'simulator',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    // Tests that wait for a callback move the simulator's clock past this (time.ts).
    SIM_CALLBACK_DELAY_MS: '5000',
    SIM_AUTO_APPROVE_S: '0',
    SIM_PROMPT_TIMEOUT_S: '60',
    // All browser tests pay from one address; keep them clear of the per-address limit.
    STKPUSH_RATE_LIMIT: '100',
    // cross-origin.e2e.ts serves the web app from this second origin, and pays through it.
    CORS_ORIGINS: otherOriginUrl,
  };
  // Each server.ts, bundled (scripts/server-bundle.ts).
  const start = async (server: BundledServer) => {
    const child = spawn(process.execPath, [await serverBundle(server)], { env, stdio: 'inherit' });
    children.push(child);
    return child;
  };
  const simulator = await start('simulator');
  await waitForHttp(`http://127.0.0.1:${simulatorPort}/_sim/info`, 30_000, simulator);
  const api = await start('api');
  await waitForHttp(`http://127.0.0.1:${port}/api/health`, 30_000, api);
  return {
    appUrl: `http://127.0.0.1:${port}`,
    simulatorUrl: `http://127.0.0.1:${simulatorPort}`,
    databaseFile: path.join(dataDir, 'mpesa.sqlite'),
    otherOriginUrl,
  };
}

export default async function setup(project: TestProject) {
  await buildWebIfNeeded();
  const workers = project.config.maxWorkers || project.vitest.config.maxWorkers || 1;
  const children: ChildProcess[] = [];
  const dataDirs: string[] = [];
  const stop = async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) =>
            child.exitCode !== null || child.signalCode !== null
              ? resolve(null)
              : child.once('exit', resolve),
          ),
      ),
    );
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports = await freePorts(3 * workers);
    const stacks = await Promise.all(
      Array.from({ length: workers }, (_, i) =>
        startStack(ports.slice(3 * i, 3 * i + 3), children, dataDirs),
      ),
    );
    project.provide('stacks', stacks);
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
