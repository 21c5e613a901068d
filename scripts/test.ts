/**
 * `npm test`: every unit, integration and component test, the web budget, then the simulator's package
 * (scripts/simulator-package-check.ts) beside the browser tests in Chromium.
 *
 * - Without Chromium the browser tests are skipped, and this says so plainly; with
 *   REQUIRE_BROWSER_TESTS=1 (as in CI) a skip is a failure.
 * - Database tests run on SQLite, and on PostgreSQL too when TEST_DATABASE_URL names one; without it
 *   this says plainly that the PostgreSQL half was skipped. REQUIRE_POSTGRES_TESTS=1 makes that a failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, chromiumPath, run } from './lib.ts';

const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
const chromium = chromiumPath();
const extraArgs = process.argv.slice(2);
const notes: string[] = [];
let failed = false;

if (!process.env.TEST_DATABASE_URL) {
  notes.push(
    'SKIPPED: the PostgreSQL half of the database tests (TEST_DATABASE_URL is not set; SQLite ran).',
  );
  if (process.env.REQUIRE_POSTGRES_TESTS === '1') failed = true;
}

const unit = await run(process.execPath, [vitest, 'run', ...extraArgs]);
if (unit !== 0) failed = true;

// The initial JavaScript and CSS of the first screen, gzipped, within 95 kB and 10 kB.
const budget = await run(process.execPath, [path.join(ROOT, 'scripts/web-budget.ts')]);
if (budget !== 0) failed = true;

// The simulator as someone else's project installs it: packed, installed into an empty folder (from
// the npm registry or npm's cache, as `npm ci`), run with npx, and paid through once. It waits on
// npm and its own processes more than it computes, so it runs beside the browser tests.
const simulatorPackage = run(process.execPath, [
  path.join(ROOT, 'scripts/simulator-package-check.ts'),
]);

if (fs.existsSync(chromium)) {
  const e2e = await run(process.execPath, [vitest, 'run', '--config', 'e2e/vitest.config.ts']);
  if (e2e !== 0) failed = true;
  else notes.push(`Browser tests ran in ${chromium}.`);
} else {
  notes.push(
    `SKIPPED: the browser tests (no Chromium at ${chromium}; install it with "apt-get install -y chromium-headless-shell" or set CHROMIUM_PATH).`,
  );
  if (process.env.REQUIRE_BROWSER_TESTS === '1') failed = true;
}
if ((await simulatorPackage) !== 0) failed = true;

console.log('');
for (const note of notes) console.log(note);
if (failed) {
  console.log('npm test FAILED.');
  process.exit(1);
}
console.log('npm test passed.');
