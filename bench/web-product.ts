/**
 * bench/web.ts's product, as `npm start` runs it: the simulator and the API serving the web app's
 * build, on free ports of 127.0.0.1 with a throw-away data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_NODE_FLAGS } from '../apps/api/src/node-flags.ts';
import { freePort } from '../apps/api/src/test/ports.ts';
import { ROOT, waitForHttp } from '../scripts/lib.ts';

const children: ChildProcess[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'mpesa-bench-web-'));

export async function stopAll(): Promise<void> {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(
    children.map((child) =>
      child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null,
    ),
  );
  rmSync(dataDir, { recursive: true, force: true });
}

export async function startProduct(otherBuild: string | undefined): Promise<string> {
  const [port, simulatorPort] = [await freePort(), await freePort()];
  const env = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: String(port),
    SIMULATOR_PORT: String(simulatorPort),
    DATA_DIR: dataDir,
    MPESA_ENV: 'simulator',
    LOG_LEVEL: 'warn',
    // The benchmark's payment settles quickly, so that its detail page shows a finished payment.
    SIM_CALLBACK_DELAY_MS: '500',
    ...(otherBuild ? { WEB_DIST_DIR: otherBuild } : {}),
  };
  const start = (entry: string, flags: readonly string[] = []) => {
    const child = spawn(process.execPath, [...flags, path.join(ROOT, entry)], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    return child;
  };
  const simulator = start('apps/simulator/src/server.ts');
  await waitForHttp(`http://127.0.0.1:${simulatorPort}/_sim/info`, 20_000, simulator);
  const api = start('apps/api/src/server.ts', API_NODE_FLAGS);
  await waitForHttp(`http://127.0.0.1:${port}/api/health`, 30_000, api);
  return `http://127.0.0.1:${port}`;
}

/** Pays 0700000000 KES 1 through the API and waits until the payment has settled. */
export async function createPayment(appUrl: string): Promise<string> {
  const response = await fetch(`${appUrl}/api/mpesa/stkpush`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify({
      phoneNumber: '0700000000',
      amount: 1,
      reference: 'BENCH-WEB',
      description: 'Web benchmark',
    }),
  });
  const body = (await response.json()) as { transactionId?: string };
  if (!response.ok || !body.transactionId) {
    throw new Error(`The payment was refused (${response.status}): ${JSON.stringify(body)}`);
  }
  const deadline = Date.now() + 30_000;
  for (;;) {
    const read = await fetch(`${appUrl}/api/mpesa/transactions/${body.transactionId}`);
    if (!read.ok) throw new Error(`The payment could not be read (${read.status})`);
    const { data } = (await read.json()) as { data?: { status?: string } };
    if (data?.status && data.status !== 'pending') return body.transactionId;
    if (Date.now() > deadline) throw new Error('The payment did not settle within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
