/**
 * `npm test`: every unit, integration and component test, the web budget, the browser tests in
 * Chromium and the simulator's package (scripts/simulator-package-check.ts).
 *
 * The web app and the simulator are built first, once, side by side. The unit tests start once the
 * simulator is built, the browser tests once the web app is, and the two run side by side with the
 * package check: they wait on pages, processes and npm more than they compute. The unit tests
 * print as they go; what the others print is held until the unit tests end, then follows as it
 * comes.
 *
 * - Without Chromium the browser tests are skipped, and this says so plainly; with
 *   REQUIRE_BROWSER_TESTS=1 (as in CI) a skip is a failure.
 * - Database tests run on SQLite, and on PostgreSQL too when TEST_DATABASE_URL names one; without it
 *   this says plainly that the PostgreSQL half was skipped. REQUIRE_POSTGRES_TESTS=1 makes that a failure.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, buildSimulatorIfNeeded, buildWebIfNeeded, chromiumPath, run } from './lib.ts';
import { serverBundle } from './server-bundle.ts';

const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
const chromium = chromiumPath();
const extraArgs = process.argv.slice(2);
const notes: string[] = [];
/** What failed, a line each: the run fails when any is here. */
const failures: string[] = [];
// Each Vitest run also writes a JSON report here, so that the end of the output names what failed:
// CI keeps only the last lines, and the unit tests' failures come long before them.
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'npm-test-'));

/** Vitest's arguments for a run that also writes its JSON report as `name`.json. */
function reported(name: string, args: string[]): string[] {
  const report = path.join(reports, `${name}.json`);
  return [
    vitest,
    'run',
    ...args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
}

type Report = {
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
};

/** One line per failed test (or file that failed outside its tests) in the run's JSON report. */
function failuresIn(name: string): string[] {
  const report = path.join(reports, `${name}.json`);
  if (!fs.existsSync(report))
    return [`${name}: no report was written (the run stopped early; see above).`];
  const { testResults } = JSON.parse(fs.readFileSync(report, 'utf8')) as Report;
  const firstLine = (text: string) => text.trim().split('\n')[0]?.slice(0, 300) ?? '';
  const lines: string[] = [];
  for (const file of testResults) {
    const where = path.relative(ROOT, file.name);
    const tests = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of tests) {
      lines.push(`${where} > ${test.fullName}: ${firstLine(test.failureMessages[0] ?? '')}`);
    }
    if (file.status === 'failed' && tests.length === 0)
      lines.push(`${where}: ${firstLine(file.message)}`);
  }
  return lines.length > 0
    ? lines
    : [`${name}: no test failed, yet the run did (an error outside the tests; see above).`];
}

if (!process.env.TEST_DATABASE_URL) {
  notes.push(
    'SKIPPED: the PostgreSQL half of the database tests (TEST_DATABASE_URL is not set; SQLite ran).',
  );
  if (process.env.REQUIRE_POSTGRES_TESTS === '1') {
    failures.push('The PostgreSQL half was skipped, and REQUIRE_POSTGRES_TESTS=1 requires it.');
  }
}

/** A command whose output is held until `release()`, then passed on as it comes. */
function held(args: string[]) {
  const chunks: [NodeJS.WriteStream, Buffer][] = [];
  let released = false;
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const pass = (to: NodeJS.WriteStream) => (chunk: Buffer) => {
    if (released) to.write(chunk);
    else chunks.push([to, chunk]);
  };
  child.stdout.on('data', pass(process.stdout));
  child.stderr.on('data', pass(process.stderr));
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  return {
    exited,
    release() {
      released = true;
      for (const [to, chunk] of chunks.splice(0)) to.write(chunk);
    },
  };
}

const browserTests = fs.existsSync(chromium);
if (!browserTests) {
  notes.push(
    `SKIPPED: the browser tests (no Chromium at ${chromium}; install it with "apt-get install -y chromium-headless-shell" or set CHROMIUM_PATH).`,
  );
  if (process.env.REQUIRE_BROWSER_TESTS === '1') {
    failures.push('The browser tests were skipped, and REQUIRE_BROWSER_TESTS=1 requires them.');
  }
}

// Each build made once here, not by the runs below at the same moment, and side by side. The unit
// tests start once the simulator's package (package.test.ts reads it) and the servers' bundles
// (the processes the tests start: scripts/server-bundle.ts) are made, while the web app may still
// be building: the browser tests need it, and within its budget.
const webBuilt = buildWebIfNeeded();
await Promise.all([buildSimulatorIfNeeded(), serverBundle('api'), serverBundle('simulator')]);
// The simulator as someone else's project installs it: packed, installed into an empty folder (from
// the npm registry or npm's cache, as `npm ci`), run with npx, and paid through once.
const packageCheck = held([path.join(ROOT, 'scripts/simulator-package-check.ts')]);
/** What runs beside the unit tests, its output held until they end. */
const beside = [packageCheck];
const browserRun = webBuilt
  .then(async () => {
    // The initial JavaScript and CSS of the first screen, gzipped, within 95 kB and 10 kB.
    const budget = held([path.join(ROOT, 'scripts/web-budget.ts')]);
    beside.push(budget);
    if ((await budget.exited) !== 0) failures.push('The web budget was exceeded (see above).');
    if (!browserTests) return undefined;
    const e2e = held(reported('browser', ['--config', 'e2e/vitest.config.ts']));
    beside.push(e2e);
    return e2e;
  })
  .catch((error: unknown) => {
    // A failed web build has said why; it fails the run, without browser tests.
    failures.push(`The web build failed: ${(error as Error).message}`);
    return undefined;
  });

if ((await run(process.execPath, reported('unit', extraArgs))) !== 0) {
  failures.push(...failuresIn('unit'));
}
const e2e = await browserRun;
for (const command of beside) command.release();
if ((await packageCheck.exited) !== 0) {
  failures.push('The simulator package check failed (see above).');
}
if (e2e) {
  if ((await e2e.exited) !== 0) {
    failures.push(...failuresIn('browser'));
  } else notes.push(`Browser tests ran in ${chromium}.`);
}
fs.rmSync(reports, { recursive: true, force: true });

console.log('');
for (const note of notes) console.log(note);
if (failures.length > 0) {
  console.log(`What failed:\n${failures.map((line) => `- ${line}`).join('\n')}`);
  console.log('npm test FAILED.');
  process.exit(1);
}
console.log('npm test passed.');
