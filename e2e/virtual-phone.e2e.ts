import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fitsWidth, workerBrowser, phonePage } from './browser.ts';
import { stack } from './stack.ts';
import { REDIRECT_DELAY_MS, callbacksNow, settleNow, shownPayment } from './time.ts';

const { appUrl, simulatorUrl } = stack();

let browser: Browser;
let app: Page;
let phone: Page;
let errors: string[];
/**
 * Errors a test expects in the console: Chromium logs every 4xx answer to a fetch as one, and
 * POST /_sim/c2b/pay answers a wrong PIN with 400.
 */
let expectedErrors: RegExp[];

beforeAll(async () => {
  browser = await workerBrowser();
});
beforeEach(async () => {
  await fetch(`${simulatorUrl}/_sim/reset`, { method: 'POST' });
  const payer = await phonePage(browser);
  const handset = await phonePage(browser);
  app = payer.page;
  phone = handset.page;
  // The app's clock, moved on to the redirect and to the next poll (time.ts).
  await app.clock.install();
  errors = [];
  expectedErrors = [];
  return async () => {
    errors.push(...payer.errors, ...handset.errors);
    errors = errors.filter((error) => !expectedErrors.some((expected) => expected.test(error)));
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
  await app.clock.fastForward(REDIRECT_DELAY_MS);
}

/** The payment the app shows, once the phone has answered: its callback now, and the page's poll. */
async function settled(status: string) {
  await app.waitForURL(/\/transactions\/[0-9a-f-]{36}$/);
  await settleNow({ appUrl, simulatorUrl }, shownPayment(app), status, app);
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

    await settled('success');
    await app.locator('.status-badge', { hasText: 'Success' }).waitFor({ timeout: 15_000 });
    // Once in the details (the timeline's callback names it too).
    expect(await app.locator('dd', { hasText: receipt }).count()).toBe(1);
  });

  it('cancelling on the phone shows Cancelled in the web app', async () => {
    await watchOnPhone('0711223344');
    await payInApp('0711223344', '99');
    await phone.getByRole('button', { name: 'Cancel' }).click();
    await phone.locator('.sms-failed').waitFor();
    await settled('cancelled');
    await app.locator('.status-badge', { hasText: 'Cancelled' }).waitFor({ timeout: 15_000 });
  });

  it('a wrong PIN fails the payment with 2001', async () => {
    await watchOnPhone('0722334455');
    await payInApp('0722334455', '15');
    await phone.getByLabel('Enter M-PESA PIN').fill('9999');
    await phone.getByRole('button', { name: 'OK' }).click();
    await settled('failed');
    await app.locator('.status-badge', { hasText: 'Failed' }).waitFor({ timeout: 15_000 });
    expect(
      await app.locator('dd', { hasText: 'The initiator information is invalid.' }).count(),
    ).toBe(1);
  });

  it('keeps a number typed before the live updates arrive', async () => {
    await payInApp('0700000002', '5');
    // The live updates' first message (which carries the log) waits until the number is typed.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await phone.route('**/_sim/events?*', async (route) => {
      await released;
      await route.continue();
    });
    await phone.goto(simulatorUrl);
    await phone.getByText('Watching all numbers.').waitFor();
    await phone.getByLabel('Number to watch').fill('0722334455');
    release();
    await phone.getByText(/POST \/mpesa\/stkpush\/v1\/processrequest → 200/).waitFor();

    expect(await phone.getByLabel('Number to watch').inputValue()).toBe('0722334455');
    await phone.getByRole('button', { name: 'Watch', exact: true }).click();
    await phone.getByText('Watching 0722334455.').waitFor();
  });

  it('shows each request and callback in the live log, with the secrets masked', async () => {
    await phone.goto(simulatorUrl);
    await payInApp('0700000001', '5');
    await phone.getByText(/POST \/mpesa\/stkpush\/v1\/processrequest → 200/).waitFor();
    await callbacksNow(simulatorUrl);
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

// ---- the M-PESA menu (public/pay-menu.js) and the ledger's messages ----------------------------

interface Ledger {
  shortcodes: { shortcode: string; kind: string; accounts: Record<string, string> }[];
  wallets: { msisdn: string; balance: string }[];
  transactions: { receipt: string; kind: string; status: string; amount: string }[];
}

async function ledger(): Promise<Ledger> {
  return (await fetch(`${simulatorUrl}/_sim/ledger`)).json() as Promise<Ledger>;
}

const walletOf = (book: Ledger, msisdn: string) =>
  book.wallets.find((wallet) => wallet.msisdn === msisdn)?.balance;
const accountOf = (book: Ledger, shortcode: string, account: string) =>
  book.shortcodes.find((known) => known.shortcode === shortcode)?.accounts[account];

/** What has focus, by its text or label: the browser's own answer, not a selector's. */
async function focused(): Promise<string> {
  return phone.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    const label = element?.id ? document.querySelector(`label[for="${element.id}"]`) : null;
    return (label?.textContent ?? element?.textContent ?? '').trim();
  });
}

/** Presses Tab until the element named `name` has focus: the keyboard's way there. */
async function tabTo(name: string) {
  for (let step = 0; step < 30; step++) {
    if ((await focused()) === name) return;
    await phone.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${name}`);
}

/** Opens the menu and the chosen form with the keyboard, and types each field, Tab between. */
async function fillMenu(choice: 'Pay Bill' | 'Buy Goods and Services', values: string[]) {
  await tabTo('M-PESA menu');
  await phone.keyboard.press('Enter');
  expect(await focused()).toBe('Pay Bill');
  if (choice !== 'Pay Bill') await phone.keyboard.press('Tab');
  await phone.keyboard.press('Enter');
  const first = choice === 'Pay Bill' ? 'Business number' : 'Till number';
  expect(await focused()).toBe(first);
  for (const [index, value] of values.entries()) {
    if (index > 0) await phone.keyboard.press('Tab');
    await phone.keyboard.type(value);
  }
}

async function token(): Promise<string> {
  const basic = Buffer.from('e2e-key:e2e-secret').toString('base64');
  const answer = await fetch(`${simulatorUrl}/oauth/v1/generate?grant_type=client_credentials`, {
    headers: { Authorization: `Basic ${basic}` },
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

async function daraja(path: string, body: unknown) {
  const answer = await fetch(`${simulatorUrl}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${await token()}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

const status = () => phone.getByRole('status').filter({ hasText: /\S/ });

describe('the M-PESA menu', () => {
  it('pays a paybill by keyboard alone: the ledger moves and M-PESA’s message shows', async () => {
    const before = await ledger();
    await watchOnPhone('0712340001');
    await fillMenu('Pay Bill', ['600984', 'INV-42', '150', '1234']);
    expect(await fitsWidth(phone)).toBe(true);
    await phone.keyboard.press('Enter');

    await status()
      .filter({
        hasText:
          "Paid Ksh150.00 to business 600984 for account INV-42. M-PESA's message is in Messages.",
      })
      .waitFor();
    // Paid, the menu closes as a phone goes home, and focus goes back to the menu's button.
    expect(await phone.locator('#menu').isHidden()).toBe(true);
    expect(await focused()).toBe('M-PESA menu');
    const sms = phone.locator('.sms-ok');
    await sms.waitFor();
    const text = (await sms.textContent()) ?? '';
    expect(text).toMatch(
      /^[A-Z0-9]{10} Confirmed\. Ksh150\.00 sent to Safaricom Daraja 984 for account INV-42 on \d+\/\d+\/\d\d at \d+:\d\d [AP]M\. Transaction cost, Ksh0\.00\.$/,
    );

    const after = await ledger();
    expect(walletOf(after, '254712340001')).toBe('249850.00');
    const utility = Number(accountOf(before, '600984', 'Utility Account') ?? '1000000.00');
    expect(Number(accountOf(after, '600984', 'Utility Account'))).toBe(utility + 150);
    expect(after.transactions[0]).toMatchObject({
      receipt: text.slice(0, 10),
      kind: 'c2b',
      status: 'Completed',
      amount: '150.00',
    });
  });

  it('refuses a wrong PIN: nothing moves, and the PIN is asked for again', async () => {
    expectedErrors.push(/^Failed to load resource: .* 400 \(Bad Request\)$/);
    await watchOnPhone('0712340002');
    await fillMenu('Pay Bill', ['600984', 'INV-43', '20', '9999']);
    await phone.keyboard.press('Enter');
    await status().filter({ hasText: 'Wrong PIN: nothing was paid. Try again.' }).waitFor();
    expect(await focused()).toBe('M-PESA PIN');
    expect(await phone.getByLabel('M-PESA PIN', { exact: true }).inputValue()).toBe('');
    expect(walletOf(await ledger(), '254712340002')).toBeUndefined();
    expect(await phone.locator('.sms').count()).toBe(0);
  });

  it('says what is wrong with a field before sending, at the field', async () => {
    await watchOnPhone('0712340003');
    await fillMenu('Pay Bill', ['600984', 'INV-44', '12.50', '1234']);
    await phone.keyboard.press('Enter');
    await phone.getByText('Enter the amount in whole shillings, from 1 to 250,000.').waitFor();
    expect(await focused()).toBe('Amount (Ksh)');
    expect(await phone.getByLabel('Amount (Ksh)').getAttribute('aria-invalid')).toBe('true');
    expect(await fitsWidth(phone)).toBe(true);
  });

  it('pays a till from Buy Goods and Services', async () => {
    await watchOnPhone('0712340004');
    await fillMenu('Buy Goods and Services', ['5123456', '75', '1234']);
    expect(await phone.getByLabel('Account number').isVisible()).toBe(false);
    await phone.keyboard.press('Enter');
    await status()
      .filter({ hasText: "Paid Ksh75.00 to till 5123456. M-PESA's message is in Messages." })
      .waitFor();
    await phone.locator('.sms-ok', { hasText: /Confirmed\. Ksh75\.00 sent to .* on / }).waitFor();
    const after = await ledger();
    expect(after.shortcodes.find((known) => known.shortcode === '5123456')).toMatchObject({
      kind: 'till',
      accounts: { 'Merchant Account': '75.00' },
    });
    expect(walletOf(after, '254712340004')).toBe('249925.00');
  });

  it('tells a wallet that cannot pay, in the payer’s words', async () => {
    // 0700300001 is C2B's magic number for a wallet that cannot pay (README, test numbers).
    await watchOnPhone('0700300001');
    await fillMenu('Pay Bill', ['600984', 'INV-45', '10', '1234']);
    await phone.keyboard.press('Enter');
    await status()
      .filter({
        hasText:
          'Failed: Ksh10.00 to business 600984 was not paid. You do not have enough money in M-PESA.',
      })
      .waitFor();
    expect(await phone.locator('#menu').isVisible()).toBe(true);
  });

  it('tells a merchant’s rejection in validation, after it comes', async () => {
    const merchant = http.createServer((request, response) => {
      response.setHeader('Content-Type', 'application/json');
      response.end(JSON.stringify({ ResultCode: 'C2B00012', ResultDesc: 'Rejected' }));
    });
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
    try {
      const registered = await daraja('/mpesa/c2b/v1/registerurl', {
        ShortCode: '600984',
        ResponseType: 'Completed',
        ConfirmationURL: `${base}/confirmation`,
        ValidationURL: `${base}/validation`,
      });
      expect(registered.status).toBe(200);
      await fetch(`${simulatorUrl}/_sim/c2b/shortcodes/600984`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ externalValidation: true }),
      });
      await watchOnPhone('0712340006');
      await fillMenu('Pay Bill', ['600984', 'NO-SUCH', '30', '1234']);
      await phone.keyboard.press('Enter');
      await status()
        .filter({
          hasText:
            'Failed: Ksh30.00 to business 600984 was not paid. Business 600984 did not accept account number NO-SUCH.',
        })
        .waitFor();
      expect(walletOf(await ledger(), '254712340006')).toBe('250000.00');
      expect(await phone.locator('.sms').count()).toBe(0);
    } finally {
      await new Promise((resolve) => merchant.close(resolve));
    }
  });

  it('shows a B2C payout as the message M-PESA sends', async () => {
    await watchOnPhone('0705912645');
    const certificate = await (await fetch(`${simulatorUrl}/_sim/certificate`)).text();
    const credential = crypto
      .publicEncrypt(
        { key: certificate, padding: crypto.constants.RSA_PKCS1_PADDING },
        Buffer.from('Safaricom999!*!'),
      )
      .toString('base64');
    const answer = await daraja('/mpesa/b2c/v3/paymentrequest', {
      OriginatorConversationID: `e2e-${Date.now()}`,
      InitiatorName: 'testapi',
      SecurityCredential: credential,
      CommandID: 'BusinessPayment',
      Amount: 1500,
      PartyA: '600992',
      PartyB: '254705912645',
      Remarks: 'Refund',
      // Nothing listens there: the Result is not what this test is about.
      QueueTimeOutURL: `${simulatorUrl}/no-receiver/timeout`,
      ResultURL: `${simulatorUrl}/no-receiver/result`,
      Occasion: 'E2E',
    });
    expect(answer).toMatchObject({ status: 200, body: { ResponseCode: '0' } });
    const sms = phone.locator('.sms-ok');
    await sms.waitFor();
    expect((await sms.textContent()) ?? '').toMatch(
      /^[A-Z0-9]{10} Confirmed\. You have received Ksh1,500\.00 from Safaricom Daraja 992 on \d+\/\d+\/\d\d at \d+:\d\d [AP]M\.$/,
    );
    expect(await fitsWidth(phone)).toBe(true);
  });
});
