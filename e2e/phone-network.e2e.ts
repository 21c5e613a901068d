/**
 * The payer on a real network, at 360 px and at 1280 px: a double tap and taps during
 * the redirect make one payment; a payment made offline fails at once and never reaches the server,
 * not even when the connection comes back; a request that gets no answer fails after 20 s and goes
 * again under the same key; a failed payment explains itself and can be tried again; screens that
 * cannot reach the server say so, keep trying and offer Retry. Offline is Chromium's own
 * (`context.setOffline`), so no request leaves the browser; "no answer" is a request held by the
 * test and never answered.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { workerBrowser, networkQuiet } from './browser.ts';
import { DESKTOP, PHONE, axeViolations, newContext, sticksOut } from './page-checks.ts';
import { stack } from './stack.ts';
import { callbacksNow, polledIn } from './time.ts';

const { appUrl, simulatorUrl } = stack();

const SENT = 'Payment initiated! Check your phone to complete the transaction.';
const REDIRECT = 'Opening this payment’s details in 3 seconds.';
const FALLBACK = 'Failed to initiate payment. Please try again.';
/** What Chromium logs for each request it cannot send while offline, or a 5xx it is answered. */
const NETWORK_ERRORS = /ERR_INTERNET_DISCONNECTED|ERR_NAME_NOT_RESOLVED|status of 50\d/;

let browser: Browser;
beforeAll(async () => {
  browser = await workerBrowser();
});

let numbers = 0;
/** A phone number of the test's own: each phone takes one payment request a minute. */
function ownPhone(): string {
  return `0799${String(Date.now() + numbers++).slice(-6)}`;
}
const international = (phone: string) => `254${phone.slice(1)}`;

/** The payments the API holds for a phone number. */
async function paymentsTo(phone: string): Promise<Array<{ _id: string; status: string }>> {
  const answer = await fetch(`${appUrl}/api/mpesa/transactions?q=${phone}`);
  return ((await answer.json()) as { data: Array<{ _id: string; status: string }> }).data;
}

/** The STK pushes the simulator has been asked for, for a phone number. */
async function pushesTo(phone: string): Promise<number> {
  const answer = await fetch(`${simulatorUrl}/_sim/log?kind=request&limit=500`);
  const { entries } = (await answer.json()) as {
    entries: Array<{ path: string; requestBody?: { PhoneNumber?: string } }>;
  };
  return entries.filter(
    (entry) =>
      entry.path === '/mpesa/stkpush/v1/processrequest' &&
      entry.requestBody?.PhoneNumber === international(phone),
  ).length;
}

/** A payment started through the API, still waiting on the (virtual) phone. */
async function pendingPayment(phone: string, amount: number) {
  const answer = await fetch(`${appUrl}/api/mpesa/stkpush`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ phoneNumber: phone, amount, reference: 'E2E network' }),
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as { transactionId: string; checkoutRequestId: string };
}

/**
 * Waits until the history screen's code, fetched by the app itself after the first screen, has
 * arrived with everything it imports (importing it again resolves once the app's own import has).
 */
async function historyCodeLoaded(page: Page) {
  const chunk = await page.waitForFunction(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .find((name) => /\/assets\/transaction-list-[^/]*\.js$/.test(name)),
  );
  const url = (await chunk.jsonValue())!;
  // As text: Vitest would rewrite an import() written in this file.
  await page.evaluate(`import(${JSON.stringify(url)}).then(() => undefined)`);
}

describe.each([
  ['at 360 px', PHONE],
  ['at 1280 px', DESKTOP],
])('the payer on a real network, %s', (_, viewport) => {
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeEach(async () => {
    context = await newContext(browser, viewport);
    page = await context.newPage();
    errors = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !NETWORK_ERRORS.test(message.text())) {
        errors.push(message.text());
      }
    });
    page.on('pageerror', (error) => errors.push(error.message));
    return async () => {
      await context.close();
      expect(errors).toEqual([]);
    };
  });

  async function fillForm(phone: string, amount: string) {
    await page.goto(appUrl);
    await page.getByLabel('Phone Number').fill(phone);
    await page.getByLabel('Amount (KES)').fill(amount);
  }

  it('a double tap, and taps during the redirect, make one payment', async () => {
    const phone = ownPhone();
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/mpesa/stkpush')) {
        sent.push(request.url());
      }
    });
    await fillForm(phone, '21');
    const pay = page.getByRole('button', { name: 'Pay with M-PESA' });
    await pay.dblclick();
    const said = page.getByRole('status').filter({ hasText: SENT });
    await said.waitFor();
    // Heard with the coming move, and the form is closed until then.
    expect(await said.textContent()).toBe(`${SENT}${REDIRECT}`);
    expect(await pay.isDisabled()).toBe(true);
    expect(await page.getByLabel('Phone Number').isDisabled()).toBe(true);
    expect(await page.getByLabel('Amount (KES)').isDisabled()).toBe(true);
    // A tap on the button, and the Enter key's submission, during the 3 s.
    await pay.click({ force: true });
    await page.locator('form').evaluate((form: HTMLFormElement) => form.requestSubmit());
    await page.waitForTimeout(300);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await said.textContent()).toBe(`${SENT}${REDIRECT}`);

    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    expect(sent).toHaveLength(1);
    expect(await paymentsTo(phone)).toHaveLength(1);
    expect(await pushesTo(phone)).toBe(1);
  });

  it('offline, a payment fails at once with a plain message and never reaches the server, even once the connection is back', async () => {
    const phone = ownPhone();
    // The page's timers on a clock of ours, to move past its 5 s retries once back online.
    await page.clock.install();
    await fillForm(phone, '22');
    await networkQuiet(page);
    await context.setOffline(true);
    const pay = page.getByRole('button', { name: 'Pay with M-PESA' });
    const tapped = Date.now();
    await pay.click();
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 5_000 });
    expect(Date.now() - tapped).toBeLessThan(5_000);
    expect(await alert.textContent()).toBe(
      `${FALLBACK}You are offline, so no payment request was sent. Connect to the internet, then try again.`,
    );
    expect(await pay.isEnabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(await sticksOut(page)).toEqual([]);

    // The connection comes back: nothing is sent by itself.
    await context.setOffline(false);
    await page.clock.fastForward(6_000);
    await networkQuiet(page);
    expect(await paymentsTo(phone)).toEqual([]);
    expect(await pushesTo(phone)).toBe(0);

    // The payer taps again: one payment.
    await pay.click();
    await page.getByText(SENT).waitFor();
    expect(await paymentsTo(phone)).toHaveLength(1);
  });

  it('a request that gets no answer fails after 20 s, says what that means, and goes again under the same key', async () => {
    const phone = ownPhone();
    await page.clock.install();
    const keys: string[] = [];
    let answer = false;
    await page.route('**/api/mpesa/stkpush', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      // Held, never answered: a connection that takes the request and goes quiet.
      if (answer) await route.continue();
    });
    await fillForm(phone, '23');
    const pay = page.getByRole('button', { name: 'Pay with M-PESA' });
    await pay.click();
    await page.getByRole('button', { name: 'Processing...' }).waitFor();
    // Held by the route before the clock moves: on a loaded machine the route can reach this
    // process after the page has already given the request up, and then it is never seen at all.
    await expect.poll(() => keys.length).toBe(1);
    await page.clock.fastForward(19_000);
    expect(await page.getByRole('button', { name: 'Processing...' }).isDisabled()).toBe(true);
    await page.clock.fastForward(1_000);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      `${FALLBACK}The server did not answer within 20 seconds, so the payment may have started: if your phone shows an M-PESA prompt, answer it. Sending the same details again cannot start a second payment.`,
    );
    expect(await paymentsTo(phone)).toEqual([]);

    answer = true;
    await pay.click();
    await page.getByText(SENT).waitFor();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await paymentsTo(phone)).toHaveLength(1);
  });

  it('a failed payment says why in plain words beside M-PESA’s, and "Try again" opens the form with its details', async () => {
    const phone = ownPhone();
    const told = await fetch(`${simulatorUrl}/_sim/numbers/${international(phone)}/next`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ outcome: '2001' }),
    });
    expect(told.status).toBe(200);
    // The page's clock, moved on to its next poll once the callback is in (time.ts).
    await page.clock.install();
    await fillForm(phone, '33');
    await page.getByLabel('Reference').fill('E2E try again');
    await page.getByLabel('Description').fill('Bus fare');
    await page.getByRole('button', { name: 'Pay with M-PESA' }).click();
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    await callbacksNow(simulatorUrl);
    await polledIn(page, page.locator('.status-badge', { hasText: 'Failed' }));

    const row = (label: string) =>
      page.locator('.detail-row', { has: page.locator('dt', { hasText: label }) }).locator('dd');
    expect(await row('Response').textContent()).toBe('The initiator information is invalid.');
    const plain = 'The M-PESA PIN was wrong, so no money moved. Try again with your M-PESA PIN.';
    expect(await row('What this means').textContent()).toBe(plain);
    // The live region says the status with its reason.
    expect(await page.locator('.transaction-status[aria-live="polite"]').textContent()).toBe(
      `Failed${plain}`,
    );
    expect(await axeViolations(page)).toEqual([]);
    expect(await sticksOut(page)).toEqual([]);

    await page.getByRole('link', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'M-PESA Payment', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByLabel('Phone Number').inputValue()).toBe(phone);
    expect(await page.getByLabel('Amount (KES)').inputValue()).toBe('33');
    expect(await page.getByLabel('Reference').inputValue()).toBe('E2E try again');
    expect(await page.getByLabel('Description').inputValue()).toBe('Bus fare');
  });

  it('a detail page that loses the connection says it may be out of date and since when, and catches up on Retry', async () => {
    const phone = ownPhone();
    const { transactionId, checkoutRequestId } = await pendingPayment(phone, 44);
    await page.goto(`${appUrl}/transactions/${transactionId}`);
    await page.getByText('Please complete the payment on your phone.').waitFor();
    await context.setOffline(true);
    const notice = page.getByText(
      /^You are offline, so this page may be out of date\. Last updated at \d{1,2}:\d{2}:\d{2}.*\. Trying again every 5 seconds\.$/,
    );
    await notice.waitFor({ timeout: 12_000 });

    // The payer pays meanwhile: the page cannot know, and says so instead of pretending.
    const paid = await fetch(`${simulatorUrl}/_sim/prompts/${checkoutRequestId}/pin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pin: '1234' }),
    });
    expect(paid.status).toBe(200);
    await expect
      .poll(async () => (await paymentsTo(phone))[0]?.status, { timeout: 15_000 })
      .toBe('success');
    expect(await page.getByText('Please complete the payment on your phone.').count()).toBe(1);
    expect(await notice.count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(await sticksOut(page)).toEqual([]);

    // Back online, the page would catch up by itself within 5 s, or at once when the browser says
    // it is online again: its own requests for the payment go unanswered until Retry is pressed,
    // so that what catches up is Retry, and the button is still there to be pressed.
    await page.evaluate(() => {
      const pressed = (event: Event) => {
        const button = (event.target as Element | null)?.closest('button');
        if (button?.textContent === 'Retry') (window as { retried?: boolean }).retried = true;
      };
      document.addEventListener('click', pressed, { capture: true });
    });
    await page.route(`**/api/mpesa/transactions/${transactionId}`, async (route) => {
      const retried = await page.evaluate(() => (window as { retried?: boolean }).retried === true);
      await (retried ? route.continue() : route.abort('internetdisconnected'));
    });
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.locator('.status-badge', { hasText: 'Success' }).waitFor({ timeout: 5_000 });
    expect(await notice.count()).toBe(0);
    expect(await page.getByText('Please complete the payment on your phone.').count()).toBe(0);
  });

  it('a history that cannot load says so under the specification’s text, keeps trying, and loads by itself once the connection is back', async () => {
    await pendingPayment(ownPhone(), 45);
    await page.goto(appUrl);
    // Every screen's code is fetched once the first has loaded: wait until the history's is (on a
    // busy machine the network can be quiet for half a second before those fetches begin).
    await page.waitForLoadState('networkidle');
    await historyCodeLoaded(page);
    await context.setOffline(true);
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.getByRole('heading', { name: 'Transaction History' }).waitFor();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Failed to fetch transactions' })
      .waitFor({ timeout: 10_000 });
    await page
      .getByText(
        'You are offline, so this page could not be loaded yet. Trying again every 5 seconds.',
      )
      .waitFor();
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(await sticksOut(page)).toEqual([]);

    await context.setOffline(false);
    await page.getByRole('table', { name: 'Transaction History' }).waitFor({ timeout: 12_000 });
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
  });
});
