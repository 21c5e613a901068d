import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fitsWidth, launchBrowser, phonePage } from './browser.ts';

const appUrl = inject('appUrl');
const simulatorUrl = inject('simulatorUrl');

let browser: Browser;
let app: Page;
let phone: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  await fetch(`${simulatorUrl}/_sim/reset`, { method: 'POST' });
  const payer = await phonePage(browser);
  const handset = await phonePage(browser);
  app = payer.page;
  phone = handset.page;
  errors = [];
  return async () => {
    errors.push(...payer.errors, ...handset.errors);
    await app.context().close();
    await phone.context().close();
    expect(errors).toEqual([]);
  };
});

async function payInApp(number: string, amount: string) {
  await app.goto(appUrl);
  await app.getByLabel('Phone Number').fill(number);
  await app.getByLabel('Amount (KES)').fill(amount);
  await app.getByRole('button', { name: 'Pay with M-PESA' }).click();
  await app.getByText('Payment initiated! Check your phone to complete the transaction.').waitFor();
}

async function watchOnPhone(number: string) {
  await phone.goto(simulatorUrl);
  // The page's script has run once it says what it watches.
  await phone.getByText('Watching all numbers.').waitFor();
  await phone.getByLabel('Number to watch').fill(number);
  await phone.getByRole('button', { name: 'Watch', exact: true }).click();
  await phone.getByText(`Watching ${number}.`).waitFor();
}

describe('the virtual phone', () => {
  it('shows the prompt; the right PIN pays, the web app shows success and the phone an M-PESA message', async () => {
    await watchOnPhone('0708374149');
    await payInApp('0708374149', '230');

    await phone
      .getByText('Do you want to pay Ksh230.00 to Sandbox Test Merchant for account Payment?')
      .waitFor();
    expect(await phone.getByText(/Times out in \d+ s/).count()).toBe(1);
    expect(await fitsWidth(phone)).toBe(true);
    // Keyboard only: the PIN field has focus when the prompt appears; Enter presses OK.
    await phone.keyboard.type('1234');
    await phone.keyboard.press('Enter');
    const sms = phone.locator('.sms-ok');
    await sms.waitFor();
    const text = (await sms.textContent()) ?? '';
    expect(text).toMatch(
      /^[A-Z0-9]{10} Confirmed\. Ksh230\.00 sent to Sandbox Test Merchant for account Payment on /,
    );
    const receipt = text.slice(0, 10);

    await app.waitForURL(/\/transactions\/[0-9a-f-]{36}$/);
    await app.locator('.status-badge', { hasText: 'Success' }).waitFor({ timeout: 15_000 });
    // Once in the details (the timeline's callback names it too).
    expect(await app.locator('dd', { hasText: receipt }).count()).toBe(1);
  });

  it('cancelling on the phone shows Cancelled in the web app', async () => {
    await watchOnPhone('0711223344');
    await payInApp('0711223344', '99');
    await phone.getByRole('button', { name: 'Cancel' }).click();
    await phone.locator('.sms-failed').waitFor();
    await app.waitForURL(/\/transactions\/[0-9a-f-]{36}$/);
    await app.locator('.status-badge', { hasText: 'Cancelled' }).waitFor({ timeout: 15_000 });
  });

  it('a wrong PIN fails the payment with 2001', async () => {
    await watchOnPhone('0722334455');
    await payInApp('0722334455', '15');
    await phone.getByLabel('Enter M-PESA PIN').fill('9999');
    await phone.getByRole('button', { name: 'OK' }).click();
    await app.waitForURL(/\/transactions\/[0-9a-f-]{36}$/);
    await app.locator('.status-badge', { hasText: 'Failed' }).waitFor({ timeout: 15_000 });
    expect(
      await app.locator('dd', { hasText: 'The initiator information is invalid.' }).count(),
    ).toBe(1);
  });

  it('shows each request and callback in the live log, with the secrets masked', async () => {
    await phone.goto(simulatorUrl);
    await payInApp('0700000001', '5');
    await phone.getByText(/POST \/mpesa\/stkpush\/v1\/processrequest → 200/).waitFor();
    await phone
      .getByText(/callback #1 → .*\/api\/mpesa\/callback\/[A-Za-z0-9_-]{4}…\s+200/)
      .waitFor({ timeout: 15_000 });
    // The callback secret and the STK password (which gives the passkey away) never reach the page.
    const log = (await phone.locator('#log').textContent()) ?? '';
    expect(log).toMatch(/"Password": "[^"]{4}…"/);
    expect(log).not.toMatch(/\/api\/mpesa\/callback\/[A-Za-z0-9_-]{5}/);
    expect(log).not.toMatch(/"Password": "[^"…]{5,}"/);
  });
});
