/**
 * The simulator as someone else's project gets it: `npm pack` of apps/simulator (which builds it),
 * the tarball installed into an empty folder outside this repository, `npx daraja-simulator`
 * started there, and a Daraja client's round trip against it: OAuth, an STK push for 0700000000
 * (which pays), the callback at a receiver of ours, an STK query. Then the package's programmatic
 * API (`startSimulator`) from the same folder, and its types through `tsc`.
 *
 * Run by `npm test` (scripts/test.ts). Installing needs the npm registry (or npm's cache), as
 * `npm ci` does. Any failure prints what the simulator said and exits 1; the folders are removed
 * either way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.ts';

const PACKAGE_DIR = path.join(ROOT, 'apps/simulator');
const SHORTCODE = '174379';
const PASSKEY = 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919';
const PAYS = '254700000000';

const started = Date.now();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'daraja-simulator-check-'));
const packDir = path.join(work, 'pack');
const appDir = path.join(work, 'app');
fs.mkdirSync(packDir);
fs.mkdirSync(appDir);

/**
 * What an `npm test` around us passes down and would point npm back at this repository (its folder,
 * its package, its workspaces). npm's other settings (registry, cache, proxy) are kept.
 */
const PROJECT_NPM_VARIABLES =
  /^npm_(package_|lifecycle_|command$|execpath$|node_execpath$|config_(local_prefix|prefix|workspaces?|include_workspace_root|call|yes)$)/i;

/**
 * The environment of every command run here: this Node first on PATH (so that npm, npx and the
 * package's `#!/usr/bin/env node` run on it, not on an older system Node), without those variables.
 */
const env: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !PROJECT_NPM_VARIABLES.test(name)),
);
env.PATH = [path.dirname(process.execPath), process.env.PATH].join(path.delimiter);

function step(text: string) {
  console.log(`[simulator package] ${text} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

class CheckFailed extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

/** Runs a command to completion, collecting its output; fails with that output if it fails. */
function exec(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve(stdout);
      else
        reject(
          new CheckFailed(
            `${command} ${args.join(' ')} (in ${cwd}) failed with ${code ?? signal}:\n${stdout}${stderr}`,
          ),
        );
    });
  });
}

/** The empty folder must have no package.json above it, or npm would install into that project. */
function checkNoProjectAbove(dir: string) {
  for (let at = path.dirname(dir); ; at = path.dirname(at)) {
    check(
      !fs.existsSync(path.join(at, 'package.json')),
      `${at} holds a package.json: the check needs a temporary folder outside any project (set TMPDIR)`,
    );
    if (path.dirname(at) === at) return;
  }
}

interface Receiver {
  url: string;
  next(timeoutMs: number): Promise<unknown>;
  close(): Promise<void>;
}

/** A callback endpoint on this machine: answers 200 as a client should, and keeps what it got. */
async function startReceiver(): Promise<Receiver> {
  const received: unknown[] = [];
  let wake: (() => void) | undefined;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      try {
        received.push(JSON.parse(body));
      } catch {
        received.push({ notJson: body });
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ResultCode: 0, ResultDesc: 'Accepted' }));
      wake?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mpesa/callback`,
    async next(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (received.length === 0) {
        check(Date.now() < deadline, `no callback arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      return received.shift();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `npx daraja-simulator …` in the folder, in its own process group so that all of it can be stopped. */
function startSimulatorProcess(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn('npx', ['--no', '--', 'daraja-simulator', ...args], {
    cwd: appDir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** The URL the simulator says it listens on (it was given port 0: any free one). */
async function listeningUrl(child: ChildProcess, output: () => string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = /Daraja simulator listening on (http:\/\/[^\s"]+)/.exec(output());
    if (found) return found[1]!;
    check(child.exitCode === null, `daraja-simulator exited with code ${child.exitCode}`);
    check(Date.now() < deadline, 'daraja-simulator did not say where it listens within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
    return Promise.resolve();
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return Promise.resolve(); // already gone
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }, 5000);
  return exited.finally(() => clearTimeout(timer));
}

async function json(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new CheckFailed(`${response.url} answered ${response.status} with non-JSON: ${text}`);
  }
}

/** Nairobi time (UTC+3, no daylight saving), as Daraja's Timestamp wants it: YYYYMMDDHHmmss. */
function timestamp(): string {
  return new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 19).replace(/[-T:]/g, '');
}

async function roundTrip(base: string, receiver: Receiver) {
  const basic = Buffer.from('check-key:check-secret').toString('base64');
  const oauth = await fetch(`${base}/oauth/v1/generate?grant_type=client_credentials`, {
    headers: { Authorization: `Basic ${basic}` },
  });
  const grant = await json(oauth);
  check(
    oauth.status === 200 && typeof grant.access_token === 'string',
    `OAuth answered ${oauth.status}: ${JSON.stringify(grant)}`,
  );
  const auth = {
    Authorization: `Bearer ${grant.access_token}`,
    'Content-Type': 'application/json',
  };
  const ts = timestamp();
  const password = Buffer.from(`${SHORTCODE}${PASSKEY}${ts}`).toString('base64');

  const push = await fetch(`${base}/mpesa/stkpush/v1/processrequest`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      BusinessShortCode: SHORTCODE,
      Password: password,
      Timestamp: ts,
      TransactionType: 'CustomerPayBillOnline',
      Amount: 1,
      PartyA: PAYS,
      PartyB: SHORTCODE,
      PhoneNumber: PAYS,
      CallBackURL: receiver.url,
      AccountReference: 'Package',
      TransactionDesc: 'Check',
    }),
  });
  const accepted = await json(push);
  check(
    push.status === 200 &&
      accepted.ResponseCode === '0' &&
      typeof accepted.CheckoutRequestID === 'string',
    `the STK push answered ${push.status}: ${JSON.stringify(accepted)}`,
  );

  const callback = (await receiver.next(15_000)) as {
    Body?: {
      stkCallback?: {
        CheckoutRequestID?: string;
        ResultCode?: number;
        CallbackMetadata?: { Item?: { Name: string; Value?: unknown }[] };
      };
    };
  };
  const result = callback.Body?.stkCallback;
  const items = Object.fromEntries(
    (result?.CallbackMetadata?.Item ?? []).map((item) => [item.Name, item.Value]),
  );
  check(
    result?.CheckoutRequestID === accepted.CheckoutRequestID &&
      result.ResultCode === 0 &&
      items.Amount === 1 &&
      typeof items.MpesaReceiptNumber === 'string' &&
      String(items.PhoneNumber) === PAYS,
    `the callback is not a paid Body.stkCallback for this push: ${JSON.stringify(callback)}`,
  );

  const query = await fetch(`${base}/mpesa/stkpushquery/v1/query`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      BusinessShortCode: SHORTCODE,
      Password: password,
      Timestamp: ts,
      CheckoutRequestID: accepted.CheckoutRequestID,
    }),
  });
  const status = await json(query);
  check(
    query.status === 200 && status.ResultCode === '0',
    `the STK query answered ${query.status}: ${JSON.stringify(status)}`,
  );
}

/** `import { startSimulator } from 'daraja-simulator'` from the folder, as a test of theirs would. */
const PROGRAMMATIC = `
import { startSimulator } from 'daraja-simulator';
const sim = await startSimulator({ SIM_PIN: '4321' });
try {
  const info = await (await fetch(sim.url + '/_sim/info')).json();
  if (info.pin !== '4321') throw new Error('/_sim/info: ' + JSON.stringify(info));
  const page = await fetch(sim.url + '/');
  if (!page.ok || !(await page.text()).includes('Virtual phone')) throw new Error('no phone page: ' + page.status);
} finally {
  await sim.close();
}
console.log('programmatic API ok');
`;

/** A user's TypeScript: the types must be real (a wrong call is an error), not any. */
const TYPED = `
import { startSimulator, loadSimulatorConfig, type RunningSimulator } from 'daraja-simulator';
const sim: RunningSimulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '10' });
const url: string = sim.url;
const port: number = loadSimulatorConfig({}).port;
// @ts-expect-error settings are environment-style strings
await startSimulator({ SIM_CALLBACK_DELAY_MS: 10 });
await sim.close();
export { url, port };
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
  },
  files: ['typed.mts'],
};

let simulator: { child: ChildProcess; output: () => string } | undefined;
let receiver: Receiver | undefined;
let failed = false;
try {
  checkNoProjectAbove(appDir);

  step('npm pack (builds dist/)');
  const packed = JSON.parse(
    await exec('npm', ['pack', '--json', '--pack-destination', packDir], PACKAGE_DIR),
  ) as { filename: string; files: { path: string }[] }[];
  const tarball = path.join(packDir, packed[0]!.filename);
  const files = packed[0]!.files.map((file) => file.path);
  for (const needed of [
    'package.json',
    'README.md',
    'LICENSE',
    'dist/server.js',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/public/index.html',
  ]) {
    check(files.includes(needed), `the tarball lacks ${needed}: ${files.join(', ')}`);
  }
  const stray = files.filter((file) => file.startsWith('src/') || /\.test\.|\/test\//.test(file));
  check(stray.length === 0, `the tarball holds sources or tests: ${stray.join(', ')}`);

  step(`npm install ${path.basename(tarball)} into an empty folder`);
  await exec('npm', ['install', '--no-audit', '--no-fund', tarball], appDir);

  const version = (
    await exec(path.join(appDir, 'node_modules/.bin/daraja-simulator'), ['--version'], appDir)
  ).trim();
  const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
    version: string;
  };
  check(version === manifest.version, `--version printed ${version}, not ${manifest.version}`);

  receiver = await startReceiver();
  step('npx daraja-simulator');
  simulator = startSimulatorProcess([
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--callback-delay-ms',
    '100',
    '--pin',
    '4321',
  ]);
  const base = await listeningUrl(simulator.child, simulator.output);
  const info = await json(await fetch(`${base}/_sim/info`));
  check(info.pin === '4321', `the --pin flag did not reach the simulator: ${JSON.stringify(info)}`);
  const described = await fetch(`${base}/_sim/openapi.json`);
  const document = await json(described);
  check(
    described.status === 200 && typeof document.openapi === 'string',
    `/_sim/openapi.json answered ${described.status}: ${JSON.stringify(document).slice(0, 300)}`,
  );

  step(`OAuth → STK push → callback → STK query against ${base}`);
  await roundTrip(base, receiver);

  step('the programmatic API and its types');
  fs.writeFileSync(path.join(appDir, 'programmatic.mjs'), PROGRAMMATIC);
  await exec(process.execPath, ['programmatic.mjs'], appDir);
  fs.writeFileSync(path.join(appDir, 'typed.mts'), TYPED);
  fs.writeFileSync(path.join(appDir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  await exec(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'],
    appDir,
  );
} catch (error) {
  failed = true;
  console.error(
    `\n[simulator package] FAILED: ${error instanceof Error ? error.message : String(error)}`,
  );
  if (!(error instanceof CheckFailed) && error instanceof Error) console.error(error.stack);
  if (simulator) console.error(`\n--- daraja-simulator's output ---\n${simulator.output()}`);
} finally {
  if (simulator) await stopGroup(simulator.child);
  await receiver?.close();
  fs.rmSync(work, { recursive: true, force: true });
}

if (failed) process.exit(1);
step('passed');
