/**
 * Starts the whole product for the browser tests, as `npm start` would but on free ports with a
 * throw-away data folder: the simulator, then the API serving the built web app.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ROOT, buildWebIfNeeded, waitForHttp } from '../scripts/lib.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    simulatorUrl: string;
    /** The API's SQLite file, for tests that need many payments at once. */
    databaseFile: string;
    /** An origin the API takes browser calls from (CORS_ORIGINS); nothing listens there until a test does. */
    otherOriginUrl: string;
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export default async function setup(project: TestProject) {
  await buildWebIfNeeded();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-e2e-'));
  const [port, simulatorPort, otherOriginPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
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
    SIM_CALLBACK_DELAY_MS: '5000',
    SIM_AUTO_APPROVE_S: '0',
    SIM_PROMPT_TIMEOUT_S: '60',
    // All browser tests pay from one address; keep them clear of the per-address limit.
    STKPUSH_RATE_LIMIT: '100',
    // cross-origin.e2e.ts serves the web app from this second origin, and pays through it.
    CORS_ORIGINS: otherOriginUrl,
  };
  const children: ChildProcess[] = [];
  const start = (entry: string) => {
    const child = spawn(process.execPath, [path.join(ROOT, entry)], { env, stdio: 'inherit' });
    children.push(child);
    return child;
  };
  const simulator = start('apps/simulator/src/server.ts');
  await waitForHttp(`http://127.0.0.1:${simulatorPort}/_sim/info`, 20_000, simulator);
  const api = start('apps/api/src/server.ts');
  await waitForHttp(`http://127.0.0.1:${port}/api/health`, 30_000, api);

  project.provide('appUrl', `http://127.0.0.1:${port}`);
  project.provide('simulatorUrl', `http://127.0.0.1:${simulatorPort}`);
  project.provide('databaseFile', path.join(dataDir, 'mpesa.sqlite'));
  project.provide('otherOriginUrl', otherOriginUrl);

  return async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) =>
            child.exitCode !== null ? resolve(null) : child.once('exit', resolve),
          ),
      ),
    );
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
