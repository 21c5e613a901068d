/// <reference lib="dom" />
/** The browser tests' Chromium (Debian's own, never a downloaded one) and what they watch on a page. */
import {
  chromium,
  type Browser,
  type BrowserContext,
  type ElementHandle,
  type Page,
} from 'playwright-core';
import { chromiumPath } from '../scripts/lib.ts';

export const CHROMIUM_PATH = chromiumPath();

let launched: Promise<Browser> | undefined;

/**
 * This worker's Chromium, launched by the first file that asks and shared by the files the worker
 * runs after it (the browser tests share modules between files: vitest.config.ts): a launch costs
 * about a second of CPU. Each file opens contexts of its own and closes them; the browser closes
 * when the worker ends (Playwright closes what it launched when its process exits).
 */
export function workerBrowser(): Promise<Browser> {
  launched ??= chromium
    .launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    .then((browser) => {
      // A browser that crashed is launched again by the next file that asks.
      browser.on('disconnected', () => (launched = undefined));
      return browser;
    });
  return launched;
}

/** How many requests each watched page has in flight, and when the last one ended. */
const network = new WeakMap<Page, { inFlight: number; lastEnded: number }>();

/** Counts the requests of every page the context opens, for `networkQuiet`. */
export function watchNetwork(context: BrowserContext): void {
  const of = (page: Page | null) => (page ? network.get(page) : undefined);
  context.on('page', (page) => network.set(page, { inFlight: 0, lastEnded: Date.now() }));
  context.on('request', (request) => {
    const seen = of(request.frame().page());
    if (seen) seen.inFlight += 1;
  });
  const ended = (request: { frame(): { page(): Page | null } }) => {
    const seen = of(request.frame().page());
    if (!seen) return;
    seen.inFlight = Math.max(0, seen.inFlight - 1);
    seen.lastEnded = Date.now();
  };
  context.on('requestfinished', ended);
  context.on('requestfailed', ended);
}

/**
 * Resolves once the page has had no request in flight for `quietMs` (Playwright's `networkidle`
 * waits a fixed 500 ms): whatever a screen loads after its heading is then in place, and a timer
 * the page's clock has just run has had its request answered. The page's context must be watched
 * (`watchNetwork`; `phonePage` and page-checks.ts's `newContext` do).
 */
export async function networkQuiet(page: Page, quietMs = 200, timeoutMs = 10_000): Promise<void> {
  const seen = network.get(page);
  if (!seen) throw new Error('networkQuiet: this page’s context is not watched (watchNetwork)');
  const deadline = Date.now() + timeoutMs;
  while (seen.inFlight > 0 || Date.now() - seen.lastEnded < quietMs) {
    if (Date.now() > deadline) throw new Error(`the network was not quiet in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Opens `path` in the app already on the page as its own links do (React Router's history, no
 * page load), and resolves once the screen before it has gone and the new one's heading is in
 * place. A page load costs Chromium about four times the CPU of drawing the screen in a loaded app
 * (docs/performance.md), so a test that goes from screen to screen moves this way; what an address
 * opens on its own (a deep link, a reload) is tested with `page.goto`. `path` must be another
 * screen than the one shown: a change of query alone leaves the heading in place.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  const before = await page.$('main h2');
  await page.evaluate((to) => {
    const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    const state = { usr: null, key: Math.random().toString(36).slice(2, 10), idx };
    window.history.pushState(state, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state }));
  }, path);
  await nextScreen(page, before);
}

/**
 * Resolves once the screen whose heading (`main h2`) was `before` has gone and the next one's
 * heading is in place: the router keeps a screen up while the next one's code arrives, so an
 * address that has changed does not yet mean a screen that has.
 */
export async function nextScreen(page: Page, before: ElementHandle | null): Promise<void> {
  if (before) await page.waitForFunction((heading) => !heading.isConnected, before);
  await before?.dispose();
  await page.locator('main h2').first().waitFor();
}

/** A phone-sized page (360 px wide) that fails the test on any error in the page's console. */
export async function phonePage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    locale: 'en-KE',
  });
  watchNetwork(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/** True when the page is no wider than its viewport: nothing to scroll sideways on a phone. */
export async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** A slow mobile network for the page: 400 ms each way and 50 kB/s (about a 3G phone's). */
export async function slowNetwork(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 400,
    downloadThroughput: 50_000,
    uploadThroughput: 25_000,
  });
}
