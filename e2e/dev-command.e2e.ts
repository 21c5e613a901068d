/**
 * `npm run dev` (scripts/dev.ts) as a developer runs it, on free ports with a throw-away data
 * folder: the web app on Vite's dev server loads in Chromium and reaches this run's API through its
 * /api proxy, and SIGTERM stops all three processes; when the API cannot start, it says so, stops
 * the simulator and exits 1. That a change restarts the API or the simulator is Node's own --watch,
 * checked by hand: a test would have to change the repository's files under everyone's feet.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ROOT } from '../scripts/lib.ts';
import { freePort } from '../apps/api/src/test/ports.ts';
import { workerBrowser, phonePage } from './browser.ts';

interface DevRun {
  output: () => string;
  exited: Promise<number | null>;
  stop: () => Promise<number | null>;
}

const runs: DevRun[] = [];
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  browser = await workerBrowser();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-dev-'));
});
afterAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.stop()));
});

function startDev(ports: { api: number; simulator: number }): DevRun {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(ports.api),
    SIMULATOR_PORT: String(ports.simulator),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    MPESA_ENV: 'simulator',
  };
  // Vitest's own; a developer's shell has none.
  delete env.NODE_ENV;
  delete env.VITEST;
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/dev.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const run: DevRun = {
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  runs.push(run);
  return run;
}

/** Waits until the output has a line the pattern matches, or the run ends, or 60 s pass. */
async function waitForLine(run: DevRun, pattern: RegExp): Promise<RegExpMatchArray> {
  const deadline = Date.now() + 60_000;
  let ended = false;
  void run.exited.then(() => (ended = true));
  for (;;) {
    const match = run.output().match(pattern);
    if (match) return match;
    if (ended || Date.now() > deadline) {
      throw new Error(`No line matching ${pattern} in the output of npm run dev:\n${run.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** True when nothing listens at the address any more. */
async function refused(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    () => false,
    () => true,
  );
}

describe('npm run dev', () => {
  it('serves the web app with hot reload, talking to its own API and simulator, and stops them all on SIGTERM', async () => {
    const ports = { api: await freePort(), simulator: await freePort() };
    const run = startDev(ports);
    // The banner's last line, so that the whole banner has arrived.
    await waitForLine(run, /Press Ctrl\+C to stop/);
    const webUrl = run.output().match(/M-PESA app\s+(http:\/\/\S+)/)![1]!;
    const apiUrl = `http://127.0.0.1:${ports.api}`;
    const simulatorUrl = `http://127.0.0.1:${ports.simulator}`;
    expect(run.output()).toContain(`API                  ${apiUrl}`);
    expect(run.output()).toContain(`Daraja simulator     ${simulatorUrl}`);
    // The simulator's state, kept beside the database so that its restarts carry on.
    expect(fs.existsSync(path.join(dataDir, 'simulator-state.json'))).toBe(true);

    // Vite's dev server, with its hot-reload client, and /api sent to this run's API.
    const page = await (await fetch(webUrl)).text();
    expect(page).toContain('/@vite/client');
    expect(await (await fetch(`${webUrl}/api/health`)).json()).toEqual({ status: 'ok' });

    // In Chromium: the form, and the simulator notice that /api/config gave, naming this run's.
    const { page: tab, errors } = await phonePage(browser);
    await tab.goto(webUrl);
    await tab.getByRole('button', { name: 'Pay with M-PESA' }).waitFor({ timeout: 30_000 });
    const notice = tab.getByRole('link', { name: 'Open the Daraja simulator' });
    await notice.waitFor();
    expect(await notice.getAttribute('href')).toBe(simulatorUrl);
    await tab.context().close();
    expect(errors).toEqual([]);

    expect(await run.stop()).toBe(0);
    for (const url of [webUrl, `${apiUrl}/api/health`, `${simulatorUrl}/_sim/info`]) {
      expect(await refused(url), `${url} still answers`).toBe(true);
    }
  }, 120_000);

  it('says which process could not start, stops the others and exits 1', async () => {
    const ports = { api: await freePort(), simulator: await freePort() };
    // Another program on the API's port (which hangs up on whoever calls).
    const taken = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => taken.listen(ports.api, '127.0.0.1', resolve));
    try {
      const run = startDev(ports);
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain(`Port ${ports.api} on 127.0.0.1 is already in use`);
      expect(run.output()).toContain('Could not start: The API failed (its error is above)');
      expect(run.output()).not.toContain('M-PESA app');
      expect(await refused(`http://127.0.0.1:${ports.simulator}/_sim/info`)).toBe(true);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});
