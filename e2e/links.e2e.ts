/**
 * Pay by link, end to end (issue 38), in English and in Kiswahili at 360 px on a slow network: a
 * cashier makes a KES 1,500 one-payment link, a payer opens it, types only a phone, pays on the
 * virtual phone, and the link shows paid with that payment; a second payer is told it is paid and
 * nothing is sent. The link's QR codes, ours and M-PESA's, shown on the Links screen. Axe once per
 * screen. This file starts an API of its own (HISTORY_ACCESS=operators).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { fitsWidth, workerBrowser, slowNetwork } from './browser.ts';
import { PHONE, axeViolations } from './page-checks.ts';
import {
  PASSWORD,
  SIGN_IN,
  pageKeepingErrors,
  signInAs,
  startWithOperators,
  type OperatorsApp,
} from './operators-app.ts';
import { stack } from './stack.ts';
import { REDIRECT_DELAY_MS, callbacksNow } from './time.ts';

const { simulatorUrl } = stack();

let browser: Browser;
let app: OperatorsApp;

beforeAll(async () => {
  app = await startWithOperators(simulatorUrl, [['Carl Cashier', 'cashier']]);
  browser = await workerBrowser();
}, 90_000);
afterAll(async () => {
  await app?.stop();
});

/** How many prompts the simulator has taken for `msisdn`. */
async function promptsTo(msisdn: string): Promise<number> {
  const { entries } = (await (
    await fetch(`${simulatorUrl}/_sim/log?kind=request&limit=500`)
  ).json()) as { entries: { path: string; requestBody: unknown }[] };
  return entries.filter(
    (entry) => entry.path.includes('stkpush') && JSON.stringify(entry.requestBody).includes(msisdn),
  ).length;
}

let numbers = 0;
const aPhone = () => `07${String(Date.now() + numbers++).slice(-8)}`;
const full = (local: string) => `254${local.slice(1)}`;

const languages = [
  {
    name: 'English',
    sign: SIGN_IN.English,
    amount: 'Amount (KES)',
    purpose: 'What it is for',
    reference: 'Reference',
    make: 'Make the link',
    phone: 'Your M-PESA phone number',
    pay: 'Pay with M-PESA',
    sent: 'Check your phone and enter your M-PESA PIN to pay.',
    paid: 'Paid',
    onePayment: '1 payment',
    payments: 'Payments through this link',
    alreadyPaid: 'This link has already been paid. There is nothing more to pay.',
    showQr: 'Show QR code',
    mpesaQr: 'Get M-PESA’s QR code',
    mpesaScan: /Payers scan this one with the M-PESA app/,
  },
  {
    name: 'Kiswahili',
    sign: SIGN_IN.Kiswahili,
    amount: 'Kiasi (KES)',
    purpose: 'Ni malipo ya nini',
    reference: 'Kumbukumbu',
    make: 'Tengeneza kiungo',
    phone: 'Nambari yako ya simu ya M-PESA',
    pay: 'Lipa kwa M-PESA',
    sent: 'Angalia simu yako na uweke PIN yako ya M-PESA ili kulipa.',
    paid: 'Kimelipwa',
    onePayment: 'Malipo 1',
    payments: 'Malipo kupitia kiungo hiki',
    alreadyPaid: 'Kiungo hiki kimekwisha lipwa. Hakuna cha kulipa tena.',
    showQr: 'Onyesha msimbo wa QR',
    mpesaQr: 'Pata msimbo wa QR wa M-PESA',
    mpesaScan: /Wanaolipa huuchanganua huu kwa programu ya M-PESA/,
  },
] as const;

describe('pay by link', () => {
  for (const language of languages) {
    it(`a cashier's KES 1,500 one-payment link is paid once, from a phone on a slow network (${language.name})`, async () => {
      const purpose = `Kitenge dress ${language.name}`;
      // The cashier makes the link.
      const cashier = await pageKeepingErrors(browser, PHONE, language.sign.locale);
      await signInAs(app, cashier.page, 'Carl Cashier', PASSWORD, {
        words: language.sign,
        next: '/links',
      });
      await cashier.page.getByLabel(language.amount, { exact: true }).fill('1500');
      await cashier.page.getByLabel(language.purpose).fill(purpose);
      await cashier.page.getByLabel(language.reference, { exact: true }).fill('ORDER-77');
      await cashier.page.getByRole('button', { name: language.make }).click();
      const card = cashier.page.getByRole('article', { name: new RegExp(purpose) });
      await card.waitFor();
      const address = (await card.locator('.link-address a').textContent()) ?? '';
      expect(address).toMatch(/\/pay\/[a-z2-9]{12}$/);
      expect(await fitsWidth(cashier.page)).toBe(true);
      expect(await axeViolations(cashier.page)).toEqual([]);

      // The link's QR code, drawn by the API, and M-PESA's beside it (the simulator's).
      await card.getByRole('button', { name: language.showQr }).click();
      const qr = card.locator('img[src$="/qr.svg"]');
      await expect
        .poll(() => qr.evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0);
      await card.getByRole('button', { name: language.mpesaQr }).click();
      await card.getByText(language.mpesaScan).waitFor({ timeout: 30_000 });
      expect(await fitsWidth(cashier.page)).toBe(true);
      expect(await axeViolations(cashier.page)).toEqual([]);

      // The payer opens it on a phone on a slow network: the shop, the amount and what for.
      const payerPhone = aPhone();
      const payer = await pageKeepingErrors(browser, PHONE, language.sign.locale);
      await payer.page.clock.install();
      await slowNetwork(payer.context, payer.page);
      await payer.page.goto(address);
      await payer.page.getByText('KES 1,500').waitFor({ timeout: 30_000 });
      await payer.page.getByText(purpose).waitFor();
      expect(await axeViolations(payer.page)).toEqual([]);
      expect(await fitsWidth(payer.page)).toBe(true);

      // The virtual phone watches the payer's number; the payer types only it, and pays.
      const handset = await pageKeepingErrors(browser, PHONE);
      await handset.page.goto(simulatorUrl);
      await handset.page.getByText('Watching all numbers.').waitFor();
      await handset.page.getByLabel('Number to watch').fill(payerPhone);
      await handset.page.getByRole('button', { name: 'Watch', exact: true }).click();
      await handset.page.getByText(`Watching ${payerPhone}.`).waitFor();

      await payer.page.getByLabel(language.phone).fill(payerPhone);
      await payer.page.getByRole('button', { name: language.pay }).click();
      await payer.page.getByText(language.sent).waitFor({ timeout: 30_000 });
      await handset.page.getByText(/Do you want to pay Ksh1,?500\.00/).waitFor();
      await handset.page.keyboard.type('1234');
      await handset.page.keyboard.press('Enter');
      await handset.page.locator('.sms-ok').waitFor();
      await callbacksNow(simulatorUrl);
      // Today's flow: on to the payer's own page.
      await payer.page.clock.fastForward(REDIRECT_DELAY_MS);
      await payer.page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 30_000 });

      // The link shows paid, with that payment.
      await expect
        .poll(
          async () => {
            await cashier.page.reload();
            // The screen's words come after the page (Kiswahili's a download of their own).
            return card
              .getByText(language.paid, { exact: true })
              .waitFor({ timeout: 3000 })
              .then(
                () => true,
                () => false,
              );
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      await card.getByText(new RegExp(language.onePayment)).waitFor();
      await card.getByText(language.payments).click();
      await card.getByText(new RegExp(full(payerPhone))).waitFor();

      // A second payer is told it is paid, and nothing is sent.
      const second = await pageKeepingErrors(browser, PHONE, language.sign.locale);
      await slowNetwork(second.context, second.page);
      await second.page.goto(address);
      await second.page.getByText(language.alreadyPaid).waitFor({ timeout: 30_000 });
      expect(await second.page.getByLabel(language.phone).count()).toBe(0);
      expect(await promptsTo(full(payerPhone))).toBe(1);

      for (const opened of [cashier, payer, handset, second]) {
        expect(opened.errors).toEqual([]);
        await opened.context.close();
      }
    }, 180_000);
  }
});
