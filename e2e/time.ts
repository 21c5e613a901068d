/**
 * Time in the browser tests, moved rather than waited for. Each stack's simulator sends a payment's
 * callback SIM_CALLBACK_DELAY_MS (5 s, global-setup.ts) after its push, on its own clock, which
 * POST /_sim/clock/advance moves (the stack's simulator serves one test file at a time). A page asks
 * again every 5 s while a payment is pending, on the browser's clock: a test that installed it
 * before the page loaded (`page.clock.install()`) moves it with `page.clock.fastForward`. The
 * simulator's moves add up to a few minutes a run, well within an access token's hour.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { POLL_INTERVAL_MS, REDIRECT_DELAY_MS } from '@mpesa/shared';

export { POLL_INTERVAL_MS, REDIRECT_DELAY_MS };

/** SIM_CALLBACK_DELAY_MS, in seconds. */
const CALLBACK_DELAY_S = 5;

/** Moves the simulator's clock: whatever falls due within `seconds` happens now. */
export async function moveSimulatorClock(simulatorUrl: string, seconds: number): Promise<void> {
  const moved = await fetch(`${simulatorUrl}/_sim/clock/advance`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ seconds }),
  });
  expect(moved.status).toBe(200);
}

/** Sends now the callbacks of the payments the simulator has taken (each due 5 s after its push). */
export function callbacksNow(simulatorUrl: string): Promise<void> {
  return moveSimulatorClock(simulatorUrl, CALLBACK_DELAY_S);
}

/** The payment's status as the API has it. */
export async function statusOf(appUrl: string, transactionId: string): Promise<string> {
  const answer = await fetch(`${appUrl}/api/mpesa/transactions/${transactionId}`);
  return ((await answer.json()) as { data: { status: string } }).data.status;
}

/**
 * Sends the payment's callback now and waits until the API has stored `status`; a page showing it
 * (with its clock installed) then asks again at once instead of within 5 s.
 */
export async function settleNow(
  urls: { appUrl: string; simulatorUrl: string },
  transactionId: string,
  status: string,
  page?: Page,
): Promise<void> {
  await callbacksNow(urls.simulatorUrl);
  await expect.poll(() => statusOf(urls.appUrl, transactionId), { timeout: 10_000 }).toBe(status);
  await page?.clock.fastForward(POLL_INTERVAL_MS);
}

/** The payment a page shows (its address ends with the id). */
export function shownPayment(page: Page): string {
  return new URL(page.url()).pathname.split('/').at(-1)!;
}

/**
 * Waits until `locator` is on the page, moving the page's clock (installed) a poll on each time it
 * is not there yet: each move makes the page ask again at once.
 */
export async function polledIn(page: Page, locator: Locator, timeout = 20_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while ((await locator.count()) === 0) {
    if (Date.now() > deadline) throw new Error(`${locator} did not appear within ${timeout} ms`);
    await page.clock.fastForward(POLL_INTERVAL_MS);
    await locator
      .first()
      .waitFor({ timeout: 500 })
      .catch(() => undefined);
  }
}
