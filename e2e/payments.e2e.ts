import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fitsWidth, workerBrowser, phonePage } from './browser.ts';
import { stack } from './stack.ts';
import { REDIRECT_DELAY_MS, settleNow, shownPayment } from './time.ts';

const { appUrl, simulatorUrl } = stack();

let browser: Browser;
let page: Page;
let errors: string[];
/** Console errors a test expects (the browser logs every 404 it is answered). */
let expectedErrors: RegExp[];

beforeAll(async () => {
  browser = await workerBrowser();
});
beforeEach(async () => {
  await fetch(`${simulatorUrl}/_sim/reset`, { method: 'POST' });
  ({ page, errors } = await phonePage(browser));
  // The page's clock, moved on to its next poll once a callback is in (time.ts).
  await page.clock.install();
  expectedErrors = [];
  return async () => {
    await page.context().close();
    expect(
      errors.filter((error) => !expectedErrors.some((pattern) => pattern.test(error))),
    ).toEqual([]);
  };
});

async function pay(phone: string, amount: string, reference = '') {
  await page.goto(appUrl);
  await page.getByLabel('Phone Number').fill(phone);
  await page.getByLabel('Amount (KES)').fill(amount);
  if (reference) await page.getByLabel('Reference').fill(reference);
  await page.getByRole('button', { name: 'Pay with M-PESA' }).click();
}

async function detailValue(label: string): Promise<string> {
  return (
    (await page
      .locator('.detail-row', { has: page.locator('dt', { hasText: label }) })
      .locator('dd')
      .textContent()) ?? ''
  );
}

describe('paying with M-PESA in the browser', () => {
  it('pays 0700000000: success message, the detail page after about 3 s, pending, then success with a receipt', async () => {
    await pay('0700000000', '120', 'E2E success');
    const success = page.getByText(
      'Payment initiated! Check your phone to complete the transaction.',
    );
    await success.waitFor();
    const shownAt = Date.now();
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    const waited = Date.now() - shownAt;
    expect(waited).toBeGreaterThanOrEqual(2500);
    expect(waited).toBeLessThan(6000);

    await page.getByRole('heading', { name: 'Transaction Details' }).waitFor();
    await page.getByText('Please complete the payment on your phone.').waitFor();
    expect(await page.locator('.status-badge').textContent()).toBe('Pending');
    expect(await fitsWidth(page)).toBe(true);

    // The simulator calls back (5 s after the push, now); the page asks again (every 5 s).
    await settleNow({ appUrl, simulatorUrl }, shownPayment(page), 'success', page);
    await page.locator('.status-badge', { hasText: 'Success' }).waitFor({ timeout: 20_000 });
    expect(await page.getByText('Please complete the payment on your phone.').count()).toBe(0);
    expect(await detailValue('M-PESA Receipt')).toMatch(/^[A-Z0-9]{10}$/);
    expect(await detailValue('Amount')).toBe('120 KES');
    expect(await detailValue('Phone Number')).toBe('254700000000');
    expect(await detailValue('Response')).toBe('The service request is processed successfully.');
  });

  it('pays 0700001032 and sees Cancelled, then both payments in the history', async () => {
    await pay('0700001032', '75', 'E2E cancel');
    await page
      .getByText('Payment initiated! Check your phone to complete the transaction.')
      .waitFor();
    await page.clock.fastForward(REDIRECT_DELAY_MS);
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    await settleNow({ appUrl, simulatorUrl }, shownPayment(page), 'cancelled', page);
    await page.locator('.status-badge', { hasText: 'Cancelled' }).waitFor({ timeout: 20_000 });
    expect(await detailValue('Response')).toBe('Request Cancelled by user.');

    await page.getByRole('link', { name: 'Back to Transactions' }).click();
    await page.getByRole('heading', { name: 'Transaction History' }).waitFor();
    const cancelled = page.getByRole('row', { name: /E2E cancel/ });
    await cancelled.waitFor();
    expect(await cancelled.textContent()).toContain('75 KES');
    expect(await cancelled.locator('.status-badge').textContent()).toBe('Cancelled');
    const paid = page.getByRole('row', { name: /E2E success/ });
    expect(await paid.locator('.status-badge').textContent()).toBe('Success');
    expect(await paid.getByRole('link', { name: 'View Details' }).count()).toBe(1);
    expect(await fitsWidth(page)).toBe(true);
  });

  it('says "Transaction not found" for an unknown id', async () => {
    expectedErrors = [/status of 404/];
    await page.goto(`${appUrl}/transactions/does-not-exist`);
    await page.getByText('Transaction not found').waitFor();
    expect(await page.getByText('Failed to fetch transaction details').count()).toBe(0);
  });

  it('shows the specification’s validation messages, phone first, every problem at once', async () => {
    await pay('12345', '0');
    await page.getByRole('alert').first().waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual([
      'Please enter a valid Kenyan phone number',
      'Amount must be at least 1 KES',
    ]);
    await page.getByLabel('Phone Number').fill('0712345678');
    await page.getByRole('button', { name: 'Pay with M-PESA' }).click();
    await page.getByRole('alert').filter({ hasText: 'Amount must be at least 1 KES' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
  });

  it('shows the shell and the simulator notice', async () => {
    await page.goto(appUrl);
    await page.getByRole('heading', { level: 1, name: 'M-PESA Payment Integration' }).waitFor();
    expect(
      await page.getByRole('link', { name: 'View GitHub Repository' }).getAttribute('href'),
    ).toMatch(/^https:\/\/github\.com\//);
    expect(await page.getByRole('contentinfo').textContent()).toContain('M-PESA Integration Demo');
    const notice = page.getByRole('link', { name: 'Open the Daraja simulator' });
    await notice.waitFor();
    expect(await notice.getAttribute('href')).toBe(simulatorUrl);
  });
});
