/**
 * Every screen, at 360 px, checked with axe-core for what keeps a screen-reader or keyboard user
 * out: missing names and labels, broken roles, contrast, landmarks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fitsWidth, workerBrowser } from './browser.ts';
import { axeViolations } from './page-checks.ts';
import { stack } from './stack.ts';

const { appUrl, simulatorUrl } = stack();

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await workerBrowser();
  // axe is injected as a script, which the pages' own Content-Security-Policy would rightly refuse.
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    bypassCSP: true,
  });
  page = await context.newPage();
});

const violations = () => axeViolations(page);

describe('accessibility', () => {
  it('the Make Payment screen, also with its validation messages showing', async () => {
    await page.goto(appUrl);
    await page.getByRole('heading', { name: 'M-PESA Payment', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Open the Daraja simulator' }).waitFor();
    expect(await violations()).toEqual([]);
    await page.getByRole('button', { name: 'Pay with M-PESA' }).click();
    await page.getByRole('alert').filter({ hasText: 'Amount must be at least 1 KES' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(2);
    expect(await violations()).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
  });

  it('the Transaction History and Transaction Details screens', async () => {
    const answer = await fetch(`${appUrl}/api/mpesa/stkpush`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // A number of its own, whose prompt waits on the phone: pending until the test ends, however
      // long the pages take.
      body: JSON.stringify({
        phoneNumber: `0799${String(Date.now()).slice(-6)}`,
        amount: 3,
        reference: 'Axe check',
      }),
    });
    const { transactionId } = await answer.json();
    await page.goto(`${appUrl}/transactions`);
    await page.getByRole('table', { name: 'Transaction History' }).waitFor();
    expect(await violations()).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);

    await page.goto(`${appUrl}/transactions/${transactionId}`);
    await page.getByText('Please complete the payment on your phone.').waitFor();
    expect(await violations()).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
  });

  it('the not-found screens', async () => {
    await page.goto(`${appUrl}/transactions/nope`);
    await page.getByText('Transaction not found').waitFor();
    expect(await violations()).toEqual([]);
    await page.goto(`${appUrl}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await violations()).toEqual([]);
  });

  it('the simulator’s virtual phone and request log', async () => {
    // A webhook received, shown open, whose body is longer than its block and scrolls in it.
    const event = {
      id: 'evt_axe',
      type: 'payment.succeeded',
      data: { lines: Array(60).fill('x') },
    };
    const received = await fetch(`${simulatorUrl}/_sim/webhooks/inbox`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Mpesa-Event-Id': event.id },
      body: JSON.stringify(event, null, 2),
    });
    expect(received.status).toBe(200);
    await page.goto(simulatorUrl);
    await page.getByRole('heading', { name: 'Virtual phone' }).waitFor();
    await page.locator('#webhooks details[open] pre').last().waitFor();
    expect(await violations()).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
  });

  it('the virtual phone’s M-PESA menu: its choices, a form with a field at fault, a payment told', async () => {
    await page.goto(`${simulatorUrl}/?phone=0712349999`);
    await page.getByText('Watching 0712349999.').waitFor();
    await page.getByRole('button', { name: 'M-PESA menu' }).click();
    await page.getByRole('heading', { name: 'Lipa na M-PESA' }).waitFor();
    expect(await violations()).toEqual([]);

    await page.getByRole('button', { name: 'Pay Bill' }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Enter the business number: 5 to 7 digits.').waitFor();
    expect(await violations()).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);

    await page.getByLabel('Business number').fill('600984');
    await page.getByLabel('Account number').fill('AXE-1');
    await page.getByLabel('Amount (Ksh)').fill('5');
    await page.getByLabel('M-PESA PIN', { exact: true }).fill('1234');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').filter({ hasText: 'Paid Ksh5.00' }).waitFor();
    await page.locator('.sms-ok').waitFor();
    expect(await violations()).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
  });
});
