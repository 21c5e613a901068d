/// <reference lib="dom" />
/**
 * Nothing moves after the first paint: the simulator notice is painted with the first screen
 * rather than pushing it down when /api/config answers, and what each screen loads afterwards
 * (the history's figures, a payment's details) takes no room from what is already shown.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { workerBrowser, phonePage } from './browser.ts';
import { stack } from './stack.ts';

const { appUrl } = stack();

let browser: Browser;
beforeAll(async () => {
  browser = await workerBrowser();
});

interface Watch {
  /** Layout shift of the page so far, as Chromium scores it (what Lighthouse calls CLS). */
  layoutShift: number;
  /** The first time the app had rendered: was the notice there, and where did the content start. */
  firstRender?: { notice: boolean; mainTop: number };
}

/** Installed before the page's own scripts: measures from the very first render. */
function watchLayout(): void {
  const watch: Watch = { layoutShift: 0 };
  (window as unknown as { watch: Watch }).watch = watch;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
    })[]) {
      if (!entry.hadRecentInput) watch.layoutShift += entry.value;
    }
  }).observe({ type: 'layout-shift', buffered: true });
  // A mutation observer runs after React's commit and before the browser paints it.
  new MutationObserver((_, observer) => {
    const main = document.querySelector('main');
    if (!main) return;
    watch.firstRender = {
      notice: document.querySelector('.simulator-notice') !== null,
      mainTop: main.getBoundingClientRect().top,
    };
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}

/** A payment of its own (a number no other test pays from, so no cool-down refuses it). */
async function payOnce(): Promise<string> {
  const phoneNumber = `0712${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
  const response = await fetch(`${appUrl}/api/mpesa/stkpush`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ phoneNumber, amount: 1 }),
  });
  const body = (await response.json()) as { transactionId?: string };
  if (!response.ok || !body.transactionId) throw new Error(JSON.stringify(body));
  return body.transactionId;
}

it('paints the simulator notice with each screen, and nothing moves afterwards', async () => {
  const transactionId = await payOnce();
  const screens = [
    { path: '/', loaded: 'button:has-text("Pay with M-PESA")' },
    { path: '/transactions', loaded: 'a:has-text("View Details")' },
    { path: `/transactions/${transactionId}`, loaded: 'a:has-text("Make Another Payment")' },
  ];
  for (const { path, loaded } of screens) {
    const { page, errors } = await phonePage(browser);
    await page.addInitScript(watchLayout);
    await page.goto(appUrl + path);
    await page.locator(loaded).first().waitFor();
    await page.waitForLoadState('networkidle');
    const watch = await page.evaluate(() => (window as unknown as { watch: Watch }).watch);
    const mainTop = await page.evaluate(
      () => document.querySelector('main')!.getBoundingClientRect().top,
    );
    expect(watch.firstRender?.notice, path).toBe(true);
    expect(watch.firstRender?.mainTop, path).toBeCloseTo(mainTop, 1);
    expect(
      await page.getByRole('complementary', { name: 'Simulator mode' }).textContent(),
      path,
    ).toBe(
      'Payments here are simulated: no real money moves. Open the Daraja simulator to answer prompts on a virtual phone.',
    );
    expect(watch.layoutShift, path).toBeLessThan(0.01);
    expect(errors, path).toEqual([]);
    await page.context().close();
  }
});
