/**
 * `npm run bench:web`: the built web app as a payer's phone sees it.
 *
 * Builds the web app when its build is older than its sources, starts the Daraja simulator and our
 * API serving the build (as `npm start` does, on free ports of 127.0.0.1 with a throw-away data
 * folder), pays 0700000000 KES 1 through the API so that a detail page exists, then:
 *
 * - runs Lighthouse (the `lighthouse` package, Debian's Chromium through chrome-launcher, mobile
 *   settings with simulated throttling) three times on each screen, `/`, `/transactions` and the
 *   payment's detail page, and keeps the median of each figure;
 * - times the payment form on an emulated slow 3G connection (400 ms latency, 400 kbit/s down and
 *   up, cache off, through the DevTools protocol in playwright-core), three times: from the start
 *   of navigation until the phone input and the submit button are visible and enabled.
 *
 * Prints a table for docs/performance.md ("The web app"), writes bench/results/web-<date>.json and
 * exits 1 when a target is missed: performance, accessibility and best practices 95 or more on
 * every screen, the form usable within 3 s on slow 3G. A load in which a request got no answer or
 * an error status ends the run at once, exit 1, before anything is written. CHROMIUM_PATH names another Chromium;
 * WEB_DIST_DIR measures another build of the web app (an older one, to compare) as it is.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, buildWebIfNeeded } from '../scripts/lib.ts';
import {
  CATEGORIES,
  CHROMIUM,
  RUNS,
  formatMs,
  lighthouseScreen,
  median,
  type ScreenResult,
} from './web-lighthouse.ts';
import { createPayment, startProduct, stopAll } from './web-product.ts';
import { slow3gRun, type Slow3gRun } from './web-slow3g.ts';

const OTHER_BUILD = process.env.WEB_DIST_DIR;
const TARGETS = { score: 95, formUsableMs: 3000 };

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(rows[0]!),
    `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`,
    ...rows.slice(1).map(line),
  ].join('\n');
}

process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));

let exitCode = 0;
try {
  if (!OTHER_BUILD) await buildWebIfNeeded();
  const appUrl = await startProduct(OTHER_BUILD);
  const transactionId = await createPayment(appUrl);
  const screens: [string, string][] = [
    ['Make Payment', '/'],
    ['Transaction History', '/transactions'],
    ['Transaction Details', `/transactions/${encodeURIComponent(transactionId)}`],
  ];

  console.log(`Lighthouse, mobile, ${RUNS} runs per screen:`);
  const results: ScreenResult[] = [];
  let lighthouseVersion = '';
  for (const [screen, urlPath] of screens) {
    const { result, version } = await lighthouseScreen(screen, appUrl, urlPath);
    results.push(result);
    lighthouseVersion = version;
  }

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  /** What Chromium accepts here (brotli), and a browser that takes gzip only, for comparison. */
  const variants = [
    { name: 'as Chromium asks', acceptEncoding: undefined },
    { name: 'gzip only', acceptEncoding: 'gzip, deflate' },
  ];
  const slow3g: { name: string; usableMs: number; runs: Slow3gRun[] }[] = [];
  let chromiumVersion = '';
  try {
    chromiumVersion = browser.version();
    for (const { name, acceptEncoding } of variants) {
      console.log(`The payment form on slow 3G (400 ms, 400 kbit/s, cache off), ${name}:`);
      const runs: Slow3gRun[] = [];
      for (let run = 1; run <= RUNS; run += 1) {
        const result = await slow3gRun(browser, appUrl, acceptEncoding);
        console.log(
          `  run ${run}: usable after ${formatMs(result.usableMs)}, ` +
            `${(result.transferredBytes / 1000).toFixed(1)} kB in ${result.requests} requests ` +
            `(scripts: ${result.scriptEncoding})`,
        );
        runs.push(result);
      }
      slow3g.push({ name, usableMs: median(runs.map((run) => run.usableMs)), runs });
    }
  } finally {
    await browser.close();
  }
  const usableMs = slow3g[0]!.usableMs;

  const date = new Date().toISOString();
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} threads, ${Math.round(totalmem() / 2 ** 30)} GB; Node ${process.version}; Chromium ${chromiumVersion}; Lighthouse ${lighthouseVersion}`;
  const scoreRows = [
    ['Screen', 'Performance', 'Accessibility', 'Best practices', 'FCP', 'LCP', 'TBT', 'CLS', 'SI'],
    ...results.map((r) => [
      `${r.screen} (\`${r.path.replace(transactionId, ':id')}\`)`,
      String(r.scores.performance),
      String(r.scores.accessibility),
      String(r.scores['best-practices']),
      formatMs(r.metrics.fcp),
      formatMs(r.metrics.lcp),
      `${Math.round(r.metrics.tbt)} ms`,
      r.metrics.cls.toFixed(3),
      formatMs(r.metrics.si),
    ]),
  ];
  const slowRow = [
    ['Slow 3G, the payment form usable', 'Median', 'Runs', 'Transferred', 'Scripts sent as'],
    ...slow3g.map(({ name, usableMs: median3, runs }) => [
      `Phone input and submit button, ${name}`,
      formatMs(median3),
      runs.map((run) => formatMs(run.usableMs)).join(', '),
      `${(median(runs.map((run) => run.transferredBytes)) / 1000).toFixed(1)} kB`,
      runs[0]?.scriptEncoding ?? '',
    ]),
  ];
  console.log('');
  console.log(`${date.slice(0, 10)}, ${machine}`);
  console.log('');
  console.log(table(scoreRows));
  console.log('');
  console.log(table(slowRow));

  const missed: string[] = [];
  for (const r of results) {
    for (const category of CATEGORIES) {
      if (r.scores[category] < TARGETS.score) {
        missed.push(`${r.screen}: ${category} ${r.scores[category]} (target ${TARGETS.score})`);
      }
    }
  }
  if (usableMs > TARGETS.formUsableMs) {
    missed.push(`slow 3G: the form is usable after ${formatMs(usableMs)} (target 3 s)`);
  }

  const resultsDir = path.join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `web-${date.replace(/[:.]/g, '-')}.json`);
  const build = readFileSync(
    path.join(OTHER_BUILD ?? path.join(ROOT, 'apps/web/dist'), 'index.html'),
    'utf8',
  );
  writeFileSync(
    file,
    JSON.stringify(
      {
        date,
        machine,
        targets: TARGETS,
        screens: results,
        slow3g,
        missed,
        indexHtml: build,
      },
      null,
      2,
    ),
  );
  console.log('');
  console.log(`Results: ${path.relative(ROOT, file)}`);
  if (missed.length > 0) {
    console.log(`Targets missed:\n  ${missed.join('\n  ')}`);
    exitCode = 1;
  } else {
    console.log('Every target met.');
  }
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await stopAll();
}
process.exit(exitCode);
