/**
 * A payer who has paid but whose callback is lost (0700009999: paid, no callback) is not left
 * waiting for reconciliation: "I have paid" asks M-PESA at once, and the page says Success within
 * 15 s of the press. At 360 px, with axe's view of the pending page and its button.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fitsWidth, launchBrowser } from './browser.ts';
import { PHONE, axeViolations, newContext } from './page-checks.ts';

const appUrl = inject('appUrl');
const simulatorUrl = inject('simulatorUrl');

let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  await fetch(`${simulatorUrl}/_sim/reset`, { method: 'POST' });
  const context = await newContext(browser, PHONE);
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
});

describe('"I have paid"', () => {
  it('tells a payer whose callback was lost (0700009999) that they paid, within 15 s of pressing', async () => {
    await page.goto(appUrl);
    await page.getByLabel('Phone Number').fill('0700009999');
    await page.getByLabel('Amount (KES)').fill('250');
    await page.getByRole('button', { name: 'Pay with M-PESA' }).click();
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 10_000 });

    // Pending: nothing that reads like a result, and no prominent "Make Another Payment".
    await page.getByText('Please complete the payment on your phone.').waitFor();
    expect(await page.locator('.status-badge').textContent()).toBe('Pending');
    expect(await page.locator('dt', { hasText: 'Response' }).count()).toBe(0);
    expect(await page.getByText('Request accepted for processing').count()).toBe(0);
    expect(
      await page.getByRole('link', { name: 'Make Another Payment' }).getAttribute('class'),
    ).toContain('button-secondary');

    // The button comes after a short wait (15 s after the payment started).
    const button = page.getByRole('button', { name: 'I have paid' });
    await button.waitFor({ timeout: 20_000 });
    expect(await fitsWidth(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    const pressedAt = Date.now();
    await button.click();
    await page.locator('.status-badge', { hasText: 'Success' }).waitFor({ timeout: 15_000 });
    expect(Date.now() - pressedAt).toBeLessThan(15_000);
    expect(await page.getByText('Please complete the payment on your phone.').count()).toBe(0);
    expect(
      await page.getByRole('link', { name: 'Make Another Payment' }).getAttribute('class'),
    ).toContain('button-primary');
  });
});
