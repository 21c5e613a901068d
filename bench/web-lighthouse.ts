/**
 * bench/web.ts's Lighthouse: each screen run RUNS times in a fresh headless Chromium, mobile
 * settings with simulated throttling, keeping the median of each figure.
 */
import { launch as launchChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { RequestsFailed } from './lib.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const RUNS = 3;
export const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
} as const;

type Category = (typeof CATEGORIES)[number];
type Metric = keyof typeof METRICS;

export interface ScreenResult {
  screen: string;
  path: string;
  scores: Record<Category, number>;
  metrics: Record<Metric, number>;
  runs: { scores: Record<Category, number>; metrics: Record<Metric, number> }[];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]!
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Milliseconds as seconds, two decimals. */
export function formatMs(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

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
    requireLoaded(url, lhr.audits['network-requests']?.details);
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
 * Throws RequestsFailed when a request of the page's load got no answer or an error status
 * (Lighthouse's network-requests audit): a page measured without its code or its data measures
 * nothing.
 */
function requireLoaded(url: string, details: unknown): void {
  const items = (details as { items?: { url: string; statusCode: number }[] } | undefined)?.items;
  if (!items) throw new Error(`Lighthouse listed no request for ${url}`);
  const failed = items.filter((item) => item.statusCode < 200 || item.statusCode >= 400);
  if (failed.length === 0) return;
  const which = failed.map((item) => `${item.url} answered ${item.statusCode}`).join(', ');
  throw new RequestsFailed(
    `Lighthouse, ${url}: ${failed.length} of ${items.length} requests failed: ${which}`,
  );
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

export async function lighthouseScreen(screen: string, appUrl: string, urlPath: string) {
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
