/**
 * The simulator as someone else's project gets it: `npm pack` of apps/simulator, built first as its
 * prepack would (unless dist/ is newer than its sources: the unit tests build it too), the tarball
 * installed into an empty folder outside this repository, `npx daraja-simulator` started there, and
 * a Daraja client's round trip against it: OAuth, an STK push for 0700000000 (which pays), the
 * callback at a receiver of ours, an STK query; then a B2C payout and its Result
 * (b2c-round-trip.ts). Then the package's programmatic API (`startSimulator`) from the same folder,
 * and its types through `tsc`.
 *
 * Run by `npm test` (scripts/test.ts). Installing needs the npm registry (or npm's cache), as
 * `npm ci` does. Any failure prints what the simulator said and exits 1; the folders are removed
 * either way.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, buildSimulatorIfNeeded } from './lib.ts';
import {
  CheckFailed,
  check,
  checkNoProjectAbove,
  exec,
  listeningUrl,
  startSimulatorProcess,
  stopGroup,
} from './simulator-package/processes.ts';
import { b2cRoundTrip } from './simulator-package/b2c-round-trip.ts';
import { c2bRoundTrip } from './simulator-package/c2b-round-trip.ts';
import { json, roundTrip, startReceiver, type Receiver } from './simulator-package/round-trip.ts';
import { PROGRAMMATIC, TSCONFIG, TYPED } from './simulator-package/user-files.ts';

const PACKAGE_DIR = path.join(ROOT, 'apps/simulator');

const started = Date.now();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'daraja-simulator-check-'));
const packDir = path.join(work, 'pack');
const appDir = path.join(work, 'app');
fs.mkdirSync(packDir);
fs.mkdirSync(appDir);

function step(text: string) {
  console.log(`[simulator package] ${text} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

let simulator: { child: ChildProcess; output: () => string } | undefined;
let receiver: Receiver | undefined;
let failed = false;
try {
  checkNoProjectAbove(appDir);

  step('npm run build (unless dist/ is up to date), npm pack');
  await buildSimulatorIfNeeded(step);
  const packed = JSON.parse(
    await exec(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir],
      PACKAGE_DIR,
    ),
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
    // The key pair a SecurityCredential is made with and read by (GET /_sim/certificate).
    'dist/keys/security-credential-certificate.pem',
    'dist/keys/security-credential-key.pem',
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
  simulator = startSimulatorProcess(appDir, [
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
  const certificate = await (await fetch(`${base}/_sim/certificate`)).text();
  const shipped = path.join(
    appDir,
    'node_modules/daraja-simulator/dist/keys/security-credential-certificate.pem',
  );
  check(
    certificate === fs.readFileSync(shipped, 'utf8'),
    `/_sim/certificate did not serve the certificate the package ships: ${certificate.slice(0, 100)}`,
  );

  step(`OAuth → STK push → callback → STK query against ${base}`);
  await roundTrip(base, receiver);
  step(`a B2C payout: OAuth → SecurityCredential → payment request → Result against ${base}`);
  await b2cRoundTrip(base, receiver);
  step(`a C2B payment: OAuth → register URL (v2) → simulate → confirmation against ${base}`);
  await c2bRoundTrip(base, receiver);

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
