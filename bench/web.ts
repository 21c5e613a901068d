/**
 * `npm run bench:web`: the built web app as a payer's phone sees it (issue 10, "Web budgets").
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
 * every screen, the form usable within 3 s on slow 3G. CHROMIUM_PATH names another Chromium;
 * WEB_DIST_DIR measures another build of the web app (an older one, to compare) as it is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { launch as launchChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import { API_NODE_FLAGS } from '../apps/api/src/node-flags.ts';
import { freePort } from '../apps/api/src/test/ports.ts';
import { ROOT, buildWebIfNeeded, waitForHttp } from '../scripts/lib.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OTHER_BUILD = process.env.WEB_DIST_DIR;
const RUNS = 3;
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
} as const;
/** Emulated slow 3G, as DevTools names it: 400 ms latency, 400 kbit/s each way. */
const SLOW_3G = {
  offline: false,
  latency: 400,
  downloadThroughput: 400_000 / 8,
  uploadThroughput: 400_000 / 8,
};
const TARGETS = { score: 95, formUsableMs: 3000 };

type Category = (typeof CATEGORIES)[number];
type Metric = keyof typeof METRICS;

interface ScreenResult {
  screen: string;
  path: string;
  scores: Record<Category, number>;
  metrics: Record<Metric, number>;
  runs: { scores: Record<Category, number>; metrics: Record<Metric, number> }[];
}

interface Slow3gRun {
  usableMs: number;
  transferredBytes: number;
  requests: number;
  scriptEncoding: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]!
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

// --- The product, as `npm start` runs it ----------------------------------------------------

const children: ChildProcess[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'mpesa-bench-web-'));

async function stopAll(): Promise<void> {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(
    children.map((child) =>
      child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null,
    ),
  );
  rmSync(dataDir, { recursive: true, force: true });
}

async function startProduct(): Promise<string> {
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
    ...(OTHER_BUILD ? { WEB_DIST_DIR: OTHER_BUILD } : {}),
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
async function createPayment(appUrl: string): Promise<string> {
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
    const { data } = (await read.json()) as { data?: { status?: string } };
    if (data?.status && data.status !== 'pending') return body.transactionId;
    if (Date.now() > deadline) throw new Error('The payment did not settle within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// --- Lighthouse ----------------------------------------------------------------------------

class LighthouseRuntimeError extends Error {}

async function lighthouseRun(url: string) {
  // A fresh browser each run: nothing cached, nothing warmed up by the previous run.
  const chrome = await launchChrome({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new LighthouseRuntimeError(`${url}: ${lhr.runtimeError.code}`);
    const scores = {} as Record<Category, number>;
    for (const category of CATEGORIES) {
      scores[category] = Math.round((lhr.categories[category]?.score ?? 0) * 100);
    }
    const metrics = {} as Record<Metric, number>;
    for (const [metric, audit] of Object.entries(METRICS) as [Metric, string][]) {
      metrics[metric] = lhr.audits[audit]?.numericValue ?? Number.NaN;
    }
    const failing = Object.values(lhr.audits)
      .filter(
        (audit) =>
          audit.score !== null &&
          audit.score < 0.9 &&
          audit.scoreDisplayMode !== 'informative' &&
          audit.scoreDisplayMode !== 'manual',
      )
      .map((audit) => `${audit.id} (${audit.displayValue ?? audit.score})`);
    return { scores, metrics, failing, lighthouseVersion: lhr.lighthouseVersion };
  } finally {
    chrome.kill();
  }
}

/**
 * Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP) in headless Chromium; such
 * a run measured nothing and is done again, twice at most.
 */
async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let left = 2; ; left -= 1) {
    try {
      return await attempt();
    } catch (error) {
      if (left === 0 || !(error instanceof LighthouseRuntimeError)) throw error;
      console.log(`  (${error.message}; run again)`);
    }
  }
}

async function lighthouseScreen(screen: string, appUrl: string, urlPath: string) {
  const runs = [];
  const failing = new Set<string>();
  let version = '';
  for (let run = 1; run <= RUNS; run += 1) {
    const result = await withRetries(() => lighthouseRun(appUrl + urlPath));
    console.log(
      `  ${screen}, run ${run}: ${CATEGORIES.map((c) => `${c} ${result.scores[c]}`).join(', ')}; ` +
        `FCP ${formatMs(result.metrics.fcp)}, LCP ${formatMs(result.metrics.lcp)}, ` +
        `TBT ${Math.round(result.metrics.tbt)} ms, CLS ${result.metrics.cls.toFixed(3)}`,
    );
    runs.push({ scores: result.scores, metrics: result.metrics });
    result.failing.forEach((audit) => failing.add(audit));
    version = result.lighthouseVersion;
  }
  const scores = {} as Record<Category, number>;
  for (const category of CATEGORIES) scores[category] = median(runs.map((r) => r.scores[category]));
  const metrics = {} as Record<Metric, number>;
  for (const metric of Object.keys(METRICS) as Metric[]) {
    metrics[metric] = median(runs.map((r) => r.metrics[metric]));
  }
  if (failing.size > 0) console.log(`  ${screen}, audits below 90: ${[...failing].join(', ')}`);
  const result: ScreenResult = { screen, path: urlPath, scores, metrics, runs };
  return { result, version };
}

// --- The payment form on slow 3G ---------------------------------------------------------

/**
 * One load of the payment form on slow 3G. `acceptEncoding` replaces what Chromium accepts (it
 * offers brotli to 127.0.0.1 and to HTTPS sites, gzip only to other plain-HTTP ones).
 */
async function slow3gRun(
  browser: Browser,
  appUrl: string,
  acceptEncoding?: string,
): Promise<Slow3gRun> {
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
    if (acceptEncoding) {
      await cdp.send('Network.setExtraHTTPHeaders', {
        headers: { 'Accept-Encoding': acceptEncoding },
      });
    }
    let transferredBytes = 0;
    let requests = 0;
    let scriptEncoding = 'none';
    cdp.on('Network.loadingFinished', (event) => {
      transferredBytes += event.encodedDataLength;
      requests += 1;
    });
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Script' && event.response.url.includes('/assets/')) {
        const headers = event.response.headers;
        scriptEncoding = headers['content-encoding'] ?? headers['Content-Encoding'] ?? 'none';
      }
    });
    await page.goto(`${appUrl}/`, { waitUntil: 'commit', timeout: 60_000 });
    // Checked at every frame; the answer is the time since navigation started.
    const usable = await page.waitForFunction(
      () => {
        const phone = document.querySelector<HTMLInputElement>('input#phoneNumber');
        const submit = document.querySelector<HTMLButtonElement>('form button[type="submit"]');
        const ready = (element: HTMLInputElement | HTMLButtonElement | null) =>
          element !== null && !element.disabled && element.checkVisibility();
        return ready(phone) && ready(submit) ? performance.now() : false;
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    const usableMs = (await usable.jsonValue()) as number;
    await page.waitForLoadState('networkidle', { timeout: 60_000 }).catch(() => undefined);
    return { usableMs, transferredBytes, requests, scriptEncoding };
  } finally {
    await context.close();
  }
}

// --- The run ---------------------------------------------------------------------------------

function formatMs(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

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
  const appUrl = await startProduct();
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
