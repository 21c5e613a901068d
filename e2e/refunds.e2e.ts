/**
 * Money back and money in, end to end (docs/product.md §10, §11): an owner refunds a paid payment
 * and sees it reversed, a cashier is offered no refund; a customer pays the shop's till from the
 * virtual phone's own M-PESA menu, the payment appears in the history with its receipt, and the
 * owner refunds it in turn. The simulator moves the money both ways in its ledger.
 *
 * This file starts an API of its own (HISTORY_ACCESS=operators) with a till of its own, which it
 * registers with the simulator at start-up as a shop's server does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fitsWidth, workerBrowser, phonePage } from './browser.ts';
import { DESKTOP, PHONE, axeViolations } from './page-checks.ts';
import {
  pageKeepingErrors,
  signInAs,
  type OperatorsApp,
  PASSWORD,
  startWithOperators,
} from './operators-app.ts';
import { stack } from './stack.ts';
import { REDIRECT_DELAY_MS, callbacksNow, polledIn } from './time.ts';

const { simulatorUrl } = stack();
const TILL = '600555';

let browser: Browser;
let app: OperatorsApp;

interface Ledger {
  shortcodes: { shortcode: string; accounts: Record<string, string> }[];
  wallets: { msisdn: string; balance: string }[];
}

async function ledger(): Promise<Ledger> {
  return (await fetch(`${simulatorUrl}/_sim/ledger`)).json() as Promise<Ledger>;
}
const walletOf = (book: Ledger, msisdn: string) =>
  Number(book.wallets.find((wallet) => wallet.msisdn === msisdn)?.balance);
const accountOf = (book: Ledger, shortcode: string, account: string) =>
  Number(book.shortcodes.find((known) => known.shortcode === shortcode)?.accounts[account]);

/** Waits until the API has registered its till's URLs with the simulator (at its start-up). */
async function tillRegistered(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const answer = await fetch(`${simulatorUrl}/_sim/c2b`);
    const { shortcodes } = (await answer.json()) as {
      shortcodes: { shortcode: string; registration: unknown }[];
    };
    if (shortcodes.some((one) => one.shortcode === TILL && one.registration)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the API never registered till ${TILL}`);
}

beforeAll(async () => {
  app = await startWithOperators(
    simulatorUrl,
    [
      ['Rita Owner', 'owner'],
      ['Carl Cashier', 'cashier'],
    ],
    { MPESA_C2B_SHORTCODE: TILL },
  );
  await tillRegistered();
  browser = await workerBrowser();
}, 90_000);
afterAll(async () => {
  await app?.stop();
});

/** A page whose clock the test moves on to its next poll once M-PESA has answered (time.ts). */
async function openPage(viewport: { width: number; height: number }) {
  const opened = await pageKeepingErrors(browser, viewport);
  await opened.page.clock.install();
  return opened;
}
/** Signs `name` in (in English), and waits until the header says so, on `next` if given. */
const signIn = (page: Page, name: string, next?: string) =>
  signInAs(app, page, name, PASSWORD, { next });

let numbers = 0;
/** A number of this file's own, that the simulator answers with `outcome`. */
async function phoneAnswering(outcome: string): Promise<string> {
  const phone = `2547${String(Date.now() + numbers++).slice(-8)}`;
  const told = await fetch(`${simulatorUrl}/_sim/numbers/${phone}/next`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ outcome }),
  });
  expect(told.status).toBe(200);
  return phone;
}

const row = (page: Page, label: string) =>
  page.locator('.detail-row', { has: page.locator('dt', { hasText: label }) }).locator('dd');

/** The owner's refund, from the payment's page: the button, the reason, the confirmation. */
async function refund(page: Page, amount: string, reason: string) {
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  const form = page.getByRole('form', { name: 'Refund this payment' });
  await form.waitFor();
  expect(await form.textContent()).toContain(amount);
  await form.getByLabel(/^Why/).fill(reason);
  expect(await axeViolations(page)).toEqual([]);
  await form.getByRole('button', { name: new RegExp(`^Refund .*${amount}`) }).click();
  await page.getByText('Sent to M-PESA, waiting for its answer.', { exact: true }).waitFor();
  // The simulator posts the reversal's Result after SIM_CALLBACK_DELAY_MS (now); the page asks
  // every 5 s.
  await callbacksNow(simulatorUrl);
  await polledIn(page, page.getByText(/^Refunded on .*M-PESA receipt [A-Z0-9]{10}\./), 30_000);
  await page.locator('.status-badge', { hasText: 'Refunded' }).waitFor();
}

describe('refunds', () => {
  it('an owner refunds a paid payment and sees it reversed; a cashier is offered no refund', async () => {
    const payer = await openPage(PHONE);
    const phone = await phoneAnswering('0');
    await payer.page.goto(app.url);
    await payer.page.getByLabel('Phone Number').fill(`0${phone.slice(3)}`);
    await payer.page.getByLabel('Amount (KES)').fill('150');
    await payer.page.getByLabel('Reference').fill('E2E REFUND');
    await payer.page.getByRole('button', { name: 'Pay with M-PESA' }).click();
    await payer.page.getByText(/^Payment initiated!/).waitFor();
    await payer.page.clock.fastForward(REDIRECT_DELAY_MS);
    await payer.page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    const paymentUrl = payer.page.url();
    await callbacksNow(simulatorUrl);
    await polledIn(payer.page, payer.page.locator('.status-badge', { hasText: 'Success' }));
    const paid = walletOf(await ledger(), phone);

    const cashier = await openPage(DESKTOP);
    await signIn(cashier.page, 'Carl Cashier', new URL(paymentUrl).pathname);
    await cashier.page.getByRole('heading', { name: 'Timeline' }).waitFor();
    expect(await cashier.page.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);
    expect(cashier.errors).toEqual([]);
    await cashier.context.close();

    const owner = await openPage(PHONE);
    await signIn(owner.page, 'Rita Owner', new URL(paymentUrl).pathname);
    await owner.page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await refund(owner.page, '150', 'Paid twice for the same order');
    expect(walletOf(await ledger(), phone)).toBe(paid + 150);
    expect(await fitsWidth(owner.page)).toBe(true);
    expect(await axeViolations(owner.page)).toEqual([]);
    expect(owner.errors).toEqual([]);
    await owner.context.close();

    // The payer's own page says so in plain words.
    await payer.page.reload();
    await payer.page.locator('.status-badge', { hasText: 'Refunded' }).waitFor();
    expect(await row(payer.page, 'What this means').textContent()).toMatch(/refund/i);
    expect(payer.errors).toEqual([]);
    await payer.context.close();
  });

  it('a payment from the virtual phone’s menu appears in the history with its receipt, and is refunded in turn', async () => {
    const msisdn = `2547${String(Date.now()).slice(-8)}`;
    const handset = await phonePage(browser);
    const phone = handset.page;
    await phone.goto(simulatorUrl);
    await phone.getByText('Watching all numbers.').waitFor();
    await phone.getByLabel('Number to watch').fill(`0${msisdn.slice(3)}`);
    await phone.getByRole('button', { name: 'Watch', exact: true }).click();
    await phone.getByText(`Watching 0${msisdn.slice(3)}.`).waitFor();
    await phone.getByRole('button', { name: 'M-PESA menu' }).click();
    await phone.getByRole('button', { name: 'Buy Goods and Services' }).click();
    await phone.getByLabel('Till number').fill(TILL);
    await phone.getByLabel('Amount (Ksh)').fill('240');
    await phone.getByLabel('M-PESA PIN', { exact: true }).fill('1234');
    await phone.getByLabel('M-PESA PIN', { exact: true }).press('Enter');
    const sms = phone.locator('.sms-ok');
    await sms.waitFor();
    const receipt = ((await sms.textContent()) ?? '').slice(0, 10);
    expect(receipt).toMatch(/^[A-Z0-9]{10}$/);
    expect(handset.errors).toEqual([]);
    await phone.context().close();
    const paid = await ledger();

    const owner = await openPage(DESKTOP);
    await signIn(owner.page, 'Rita Owner', '/transactions?channel=till');
    const line = owner.page.locator('.transaction-table tr', { hasText: 'Till' }).first();
    await line.waitFor({ timeout: 20_000 });
    expect(await line.textContent()).toContain('240');
    await line.getByRole('link', { name: 'View Details' }).click();
    await owner.page.getByRole('heading', { name: 'Timeline' }).waitFor();
    expect(await owner.page.content()).toContain(receipt);

    await refund(owner.page, '240', 'Goods returned');
    const after = await ledger();
    expect(walletOf(after, msisdn)).toBe(walletOf(paid, msisdn) + 240);
    expect(accountOf(after, TILL, 'Merchant Account')).toBe(
      accountOf(paid, TILL, 'Merchant Account') - 240,
    );
    expect(await axeViolations(owner.page)).toEqual([]);
    expect(owner.errors).toEqual([]);
    await owner.context.close();
  });
});
