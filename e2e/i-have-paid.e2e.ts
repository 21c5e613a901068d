/**
 * A payer who has paid but whose callback is lost (as 0700009999: paid, no callback) is not left
 * waiting for reconciliation: "I have paid" asks M-PESA at once, and the page says Success within
 * 15 s of the press. In English and in Kiswahili, at 360 and 1280 px, with axe's view of the
 * pending page and its button.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fitsWidth, workerBrowser } from './browser.ts';
import { DESKTOP, PHONE, axeViolations, newContext } from './page-checks.ts';
import { stack } from './stack.ts';
import { moveSimulatorClock } from './time.ts';

const { appUrl, simulatorUrl } = stack();

let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await workerBrowser();
});
let numbers = 0;

/**
 * A number of this run's own that the simulator pays without a callback, as it does 0700009999: a
 * phone takes one payment request a minute, and each case pays once.
 */
async function paidWithoutCallback(): Promise<string> {
  const phone = `2547${String(Date.now() + numbers++).slice(-8)}`;
  const told = await fetch(`${simulatorUrl}/_sim/numbers/${phone}/next`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ outcome: 'paid-no-callback' }),
  });
  expect(told.status).toBe(200);
  return phone;
}

/** What the payer reads, in each language. */
const WORDS = {
  English: {
    locale: 'en-KE',
    phone: 'Phone Number',
    amount: 'Amount (KES)',
    pay: 'Pay with M-PESA',
    complete: 'Please complete the payment on your phone.',
    pending: 'Pending',
    success: 'Success',
    response: 'Response',
    another: 'Make Another Payment',
    paid: 'I have paid',
    // M-PESA's answer to "I have paid" has no receipt number: the payer is told where it is.
    receiptInSms:
      'You paid. The receipt number is in the confirmation message M-PESA sent to your phone.',
  },
  Kiswahili: {
    locale: 'sw-KE',
    phone: 'Nambari ya Simu',
    amount: 'Kiasi (KES)',
    pay: 'Lipa kwa M-PESA',
    complete: 'Tafadhali kamilisha malipo kwenye simu yako.',
    pending: 'Inasubiri',
    success: 'Imefanikiwa',
    response: 'Jibu la M-PESA',
    another: 'Fanya Malipo Mengine',
    paid: 'Nimelipa',
    receiptInSms:
      'Umelipa. Nambari ya risiti iko kwenye ujumbe wa uthibitisho ambao M-PESA imetuma kwenye simu yako.',
  },
};

beforeEach(async () => {
  await fetch(`${simulatorUrl}/_sim/reset`, { method: 'POST' });
});

async function openPage(viewport: typeof PHONE | typeof DESKTOP, locale: string) {
  const context = await newContext(browser, viewport, locale);
  page = await context.newPage();
  errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return async () => {
    await context.close();
    expect(errors).toEqual([]);
  };
}

describe.each([
  ['English', PHONE],
  ['English', DESKTOP],
  ['Kiswahili', PHONE],
  ['Kiswahili', DESKTOP],
] as const)('"I have paid" in %s at %o', (language, viewport) => {
  const words = WORDS[language];
  it('tells a payer whose callback was lost that they paid, within 15 s of pressing', async () => {
    const close = await openPage(viewport, words.locale);
    // The page's clock, to bring the button's wait on rather than sit through it.
    await page.clock.install();
    await page.goto(appUrl);
    await page.getByLabel(words.phone).fill(await paidWithoutCallback());
    await page.getByLabel(words.amount).fill('250');
    await page.getByRole('button', { name: words.pay }).click();
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 10_000 });

    // Pending: nothing that reads like a result, and no prominent "Make Another Payment".
    await page.getByText(words.complete).waitFor();
    expect(await page.locator('.status-badge').textContent()).toBe(words.pending);
    expect(await page.locator('dt', { hasText: words.response }).count()).toBe(0);
    expect(await page.getByText('Request accepted for processing').count()).toBe(0);
    expect(await page.getByRole('link', { name: words.another }).getAttribute('class')).toContain(
      'button-secondary',
    );

    // The button comes after a short wait (15 s after the payment started), not before. The 15 s
    // pass on both clocks: the simulator's (which has taken the payment by then) and the page's.
    const button = page.getByRole('button', { name: words.paid });
    expect(await button.count()).toBe(0);
    await moveSimulatorClock(simulatorUrl, 15);
    await page.clock.fastForward(15_000);
    await button.waitFor({ timeout: 20_000 });
    expect(await fitsWidth(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    const pressedAt = Date.now();
    await button.click();
    await page.locator('.status-badge', { hasText: words.success }).waitFor({ timeout: 15_000 });
    expect(Date.now() - pressedAt).toBeLessThan(15_000);
    expect(await page.getByText(words.complete).count()).toBe(0);
    await page.locator('.detail-row dd', { hasText: words.receiptInSms }).waitFor();
    expect(await page.getByRole('link', { name: words.another }).getAttribute('class')).toContain(
      'button-primary',
    );
    await close();
  });
});
