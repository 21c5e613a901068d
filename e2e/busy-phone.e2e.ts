/**
 * A phone that is still held tells the payer why, in the form's error box (docs/product.md §8: the server's
 * message): a prompt still open on it, or a prompt that has just ended and the cooldown between
 * prompts, with how long is left.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { workerBrowser, phonePage } from './browser.ts';
import { stack } from './stack.ts';
import { callbacksNow } from './time.ts';

const { appUrl, simulatorUrl } = stack();
// A number no other browser test pays, so that no earlier test's cooldown holds it.
const PHONE = '0708000123';

let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await workerBrowser();
});
beforeEach(async () => {
  ({ page, errors } = await phonePage(browser));
  return async () => {
    await page.context().close();
  };
});

async function pay(amount: string) {
  await page.goto(appUrl);
  await page.getByLabel('Phone Number').fill(PHONE);
  await page.getByLabel('Amount (KES)').fill(amount);
  await page.getByRole('button', { name: 'Pay with M-PESA' }).click();
}

async function statusOf(transactionId: string): Promise<string> {
  const answer = await fetch(`${appUrl}/api/mpesa/transactions/${transactionId}`);
  return ((await answer.json()) as { data: { status: string } }).data.status;
}

describe('a phone that is still held', () => {
  it('says a prompt is still open, then, once it has ended, how long until a new one can be sent', async () => {
    await pay('41');
    await page
      .getByText('Payment initiated! Check your phone to complete the transaction.')
      .waitFor();
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    const transactionId = page.url().split('/').pop()!;

    // The prompt is open on the phone (the browser tests' simulator approves nothing by itself).
    await pay('42');
    const open = page.locator('.error-message');
    await open
      .getByText(
        'A payment request is already waiting on this phone. Complete or cancel it, then try again in a minute.',
      )
      .waitFor();
    expect(page.url()).toBe(`${appUrl}/`);

    // The payer cancels it on the phone; the callback reaches the API.
    const { prompts } = (await (
      await fetch(`${simulatorUrl}/_sim/prompts?phone=${PHONE}&state=open`)
    ).json()) as { prompts: { checkoutRequestId: string }[] };
    expect(prompts).toHaveLength(1);
    const cancelled = await fetch(
      `${simulatorUrl}/_sim/prompts/${prompts[0]!.checkoutRequestId}/cancel`,
      { method: 'POST' },
    );
    expect(cancelled.status).toBe(200);
    // Its callback now rather than 5 s later (time.ts).
    await callbacksNow(simulatorUrl);
    await expect.poll(() => statusOf(transactionId), { timeout: 15_000 }).toBe('cancelled');

    await pay('43');
    const ended = page.locator('.error-message');
    await ended.getByText(/^The last payment request to this phone has just ended\./).waitFor();
    const text = (await ended.textContent()) ?? '';
    expect(text).toMatch(
      /To protect the phone from repeated prompts, a new one can be sent in (\d+ seconds|1 minute)\./,
    );
    // No second prompt reached the phone.
    const all = (await (await fetch(`${simulatorUrl}/_sim/prompts?phone=${PHONE}`)).json()) as {
      prompts: unknown[];
    };
    expect(all.prompts).toHaveLength(1);
    // The browser logs each 429 it is answered; nothing else went wrong in the page.
    expect(errors.filter((error) => !/status of 429/.test(error))).toEqual([]);
  });
});
