/**
 * The Transaction Details screen's timeline and its "Copy receipt" button, in Chromium at 360 px:
 * a payment made in the form followed from saving to the simulator's callback, the receipt copied
 * by keyboard, and axe's view of the screen with both showing.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fitsWidth, workerBrowser, phonePage } from './browser.ts';
import { axeViolations as violations } from './page-checks.ts';
import { stack } from './stack.ts';
import { REDIRECT_DELAY_MS, settleNow, shownPayment } from './time.ts';

const { appUrl, simulatorUrl } = stack();

const SENT = 'Payment initiated! Check your phone to complete the transaction.';
// The step that settled the payment says its status in words before its sentence.
const PAID = /^Success M-PESA told us: paid, receipt ([A-Z0-9]{10})\.$/;
// With the history open to all (the sandbox), the page speaks to the payer, who just paid.
const SAVED = 'Your payment request was saved.';
const ACCEPTED = 'M-PESA received the payment request and sent a prompt to your phone.';

let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await workerBrowser();
});
beforeEach(async () => {
  await fetch(`${simulatorUrl}/_sim/reset`, { method: 'POST' });
  ({ page, errors } = await phonePage(browser));
  // The page's clock, moved on to the redirect and to the next poll (time.ts).
  await page.clock.install();
  return async () => {
    await page.context().close();
    expect(errors).toEqual([]);
  };
});

let numbers = 0;

/**
 * A phone number of the test's own that the simulator pays, as it pays 0700000000. Not 0700000000
 * itself: payments.e2e.ts pays it too, and a phone takes one payment request per PHONE_COOLDOWN_S
 * (60 s), so whichever file ran second would be refused.
 */
async function payingNumber(): Promise<string> {
  const phone = `2547${String(Date.now() + numbers++).slice(-8)}`;
  const told = await fetch(`${simulatorUrl}/_sim/numbers/${phone}/next`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ outcome: '0' }),
  });
  expect(told.status).toBe(200);
  return phone;
}

describe('the timeline on the Transaction Details screen', () => {
  it('follows a payment from saving to the callback, and copies its receipt', async () => {
    await page.goto(appUrl);
    await page.getByLabel('Phone Number').fill(await payingNumber());
    await page.getByLabel('Amount (KES)').fill('95');
    await page.getByLabel('Reference').fill('E2E timeline');
    await page.getByRole('button', { name: 'Pay with M-PESA' }).click();
    await page.getByText(SENT).waitFor();
    await page.clock.fastForward(REDIRECT_DELAY_MS);
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 10_000 });

    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText(ACCEPTED).waitFor();
    // Still pending: the callback comes (5 s after the push, now), and the timeline is asked again
    // (every 5 s).
    expect(await timeline.getByText(PAID).count()).toBe(0);
    await settleNow({ appUrl, simulatorUrl }, shownPayment(page), 'success', page);
    await timeline.getByText(PAID).waitFor({ timeout: 20_000 });

    const titles = await timeline.locator('li .timeline-event-title').allTextContents();
    expect(titles).toEqual([SAVED, ACCEPTED, expect.stringMatching(PAID)]);
    const receipt = titles[2]!.match(PAID)![1]!;
    // The API's own words, one click away.
    const daraja = timeline.locator('li').nth(2).locator('details');
    expect(await daraja.evaluate((details: HTMLDetailsElement) => details.open)).toBe(false);
    await daraja.getByText('Daraja’s words').click();
    await daraja.getByText(`Callback: paid (receipt ${receipt})`, { exact: false }).waitFor();
    expect(
      await page
        .locator('.detail-row', { has: page.locator('dt', { hasText: 'M-PESA Receipt' }) })
        .locator('dd')
        .textContent(),
    ).toBe(receipt);
    for (const time of await timeline.locator('li time').all()) {
      expect(Date.parse((await time.getAttribute('datetime')) ?? '')).not.toBeNaN();
      expect(await time.textContent()).not.toBe('N/A');
    }

    // Copied by keyboard, with a target big enough for a thumb.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: appUrl,
    });
    const copy = page.getByRole('button', { name: 'Copy receipt' });
    const box = await copy.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(44);
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await copy.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(receipt);
    expect(await fitsWidth(page)).toBe(true);
  });

  it('passes axe at 360 px with the timeline and the copy button showing', async () => {
    const answer = await fetch(`${appUrl}/api/mpesa/stkpush`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        phoneNumber: await payingNumber(),
        amount: 4,
        reference: 'Axe timeline',
      }),
    });
    expect(answer.status).toBe(200);
    const { transactionId } = await answer.json();
    await settleNow({ appUrl, simulatorUrl }, transactionId, 'success');

    // axe is injected as a script, which the page's own Content-Security-Policy would rightly refuse.
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      bypassCSP: true,
    });
    try {
      const axePage = await context.newPage();
      await axePage.goto(`${appUrl}/transactions/${transactionId}`);
      await axePage
        .getByRole('region', { name: 'Timeline' })
        .getByText(PAID)
        .waitFor({ timeout: 20_000 });
      await axePage.getByRole('button', { name: 'Copy receipt' }).waitFor();
      expect(await violations(axePage)).toEqual([]);
      expect(await fitsWidth(axePage)).toBe(true);
    } finally {
      await context.close();
    }
  });
});
