/**
 * Money out, end to end (docs/product.md §13): a cashier proposes a batch of three from a CSV
 * file, a second owner approves it, the virtual phone's wallets receive each, and the shortcode's
 * accounts move by the payouts plus their charges, to the cent; the history lists them under Money
 * out, apart from the money in, and its first page shows the day's money out and the balance. A
 * payout whose acknowledgement is lost after M-PESA paid (the simulator's `lose-answer` fault) is
 * recovered by transaction status without a second send. In English and in Kiswahili, at 360 and
 * 1280 px, axe-clean.
 *
 * This file starts an API of its own (HISTORY_ACCESS=operators), whose payout recovery runs every
 * 200 ms and asks about a payout 1 s after it was approved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fitsWidth, openInApp, workerBrowser } from './browser.ts';
import { DESKTOP, PHONE, axeViolations } from './page-checks.ts';
import {
  PASSWORD,
  SIGN_IN,
  pageKeepingErrors,
  signInAs,
  startWithOperators,
  type OperatorsApp,
} from './operators-app.ts';
import { stack } from './stack.ts';
import { callbacksNow, polledIn } from './time.ts';

const { simulatorUrl } = stack();
const SHORTCODE = '174379';

let browser: Browser;
let app: OperatorsApp;

interface Ledger {
  shortcodes: { shortcode: string; accounts: Record<string, string> }[];
  wallets: { msisdn: string; balance: string }[];
  transactions?: { kind: string; originatorConversationId?: string }[];
}

async function ledger(): Promise<Ledger> {
  return (await fetch(`${simulatorUrl}/_sim/ledger`)).json() as Promise<Ledger>;
}
const cents = (text: string | undefined) => Math.round(Number(text) * 100);
/** A new wallet holds KES 250,000.00 from its first use (docs/daraja/ledger.md). */
const NEW_WALLET = '250000.00';
const walletOf = (book: Ledger, msisdn: string) =>
  cents(book.wallets.find((wallet) => wallet.msisdn === msisdn)?.balance ?? NEW_WALLET);
const accountsOf = (book: Ledger) =>
  Object.values(book.shortcodes.find((known) => known.shortcode === SHORTCODE)?.accounts ?? {})
    .map(cents)
    .reduce((sum, each) => sum + each, 0);

beforeAll(async () => {
  app = await startWithOperators(
    simulatorUrl,
    [
      ['Rita Owner', 'owner'],
      ['Olga Owner', 'owner'],
      ['Carl Cashier', 'cashier'],
      ['Vera Viewer', 'viewer'],
    ],
    {
      // A second owner approves even an owner's own, as against M-PESA (on the simulator it is off).
      PAYOUT_APPROVAL: 'always',
      PAYOUT_CHECK_AFTER_S: '1',
      RECONCILE_INTERVAL_MS: '200',
      BALANCE_INTERVAL_S: '0',
    },
  );
  browser = await workerBrowser();
}, 90_000);
afterAll(async () => {
  await app?.stop();
});

async function openPage(viewport: { width: number; height: number }, locale?: string) {
  const opened = await pageKeepingErrors(browser, viewport, locale);
  await opened.page.clock.install();
  return opened;
}

/** Replaces the simulator's fault rules (docs: apps/simulator/README.md, "Fault rules"). */
const faults = (rules: object[]) =>
  fetch(`${simulatorUrl}/_sim/faults`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ seed: 1, rules }),
  });

/** How many B2C requests the simulator has taken that pay `msisdn`. */
async function b2cRequestsTo(msisdn: string): Promise<number> {
  const { entries } = (await (
    await fetch(`${simulatorUrl}/_sim/log?kind=request&limit=500`)
  ).json()) as { entries: { path: string; requestBody: unknown }[] };
  return entries.filter(
    (entry) =>
      entry.path.includes('/mpesa/b2c/') && JSON.stringify(entry.requestBody).includes(msisdn),
  ).length;
}

/** Proposes one payout from the screen's form, in English, and waits until it is listed. */
async function proposeOne(page: Page, phone: string, amount: string, reason: string) {
  const form = page.getByRole('form', { name: 'Propose a payout' });
  await form.getByLabel('Phone, till or paybill number').fill(phone);
  await form.getByLabel('Amount (KES)').fill(amount);
  await form.getByLabel('Reason').fill(reason);
  await form.getByRole('button', { name: 'Propose' }).click();
  await card(page, new RegExp(full(phone))).waitFor();
}

/** The id of the payout to `msisdn`, as the signed-in page's API lists it. */
async function payoutIdTo(page: Page, msisdn: string): Promise<string> {
  const listed = await page.request.get(`${app.url}/api/payouts`);
  const { data } = (await listed.json()) as { data: { payouts: { id: string; to: string }[] } };
  const found = data.payouts.find((payout) => payout.to === msisdn);
  if (!found) throw new Error(`no payout to ${msisdn}`);
  return found.id;
}

let numbers = 0;
/** A phone of this run's own, so that its wallet moves by this test's payouts only. */
const aPhone = () => `07${String(Date.now() + numbers++).slice(-8)}`;
const full = (local: string) => `254${local.slice(1)}`;

/** The payout card for `amount` to `msisdn` (its name says both, in the page's language). */
const card = (page: Page, pattern: RegExp) => page.getByRole('article', { name: pattern });

const languages = [
  {
    name: 'English',
    sign: SIGN_IN.English,
    batch: 'Propose the file',
    approve: 'Approve the batch',
    paid: 'Paid',
    waiting: 'Waiting for approval',
    moneyOut: 'Money out',
    glance: 'Money out',
    everyPayout: 'See every payout',
    balance: 'Balance at M-PESA',
    balanceUnread: 'Balance at M-PESA: not read yet',
    readNow: 'Read the balance now',
  },
  {
    name: 'Kiswahili',
    sign: SIGN_IN.Kiswahili,
    batch: 'Pendekeza faili',
    approve: 'Idhinisha kundi',
    paid: 'Yamelipwa',
    waiting: 'Yanasubiri idhini',
    moneyOut: 'Pesa zilizotoka',
    glance: 'Pesa zilizotoka',
    everyPayout: 'Tazama malipo yote',
    balance: 'Salio kwenye M-PESA',
    balanceUnread: 'Salio kwenye M-PESA: bado halijasomwa',
    readNow: 'Soma salio sasa',
  },
] as const;

describe('payouts', () => {
  for (const [index, language] of languages.entries()) {
    it(`a cashier proposes a batch of three, a second owner approves, each arrives to the cent (${language.name})`, async () => {
      const phones = [aPhone(), aPhone(), aPhone()];
      const before = await ledger();
      const csv = `to,amount,reason\n${phones[0]},1500,Wages\n${phones[1]},800,Delivery\n${phones[2]},250,Tips\n`;

      // The cashier at 360 px in one language, the owner at 1280 px in the other.
      const cashierLocale = index === 0 ? SIGN_IN.English : SIGN_IN.Kiswahili;
      const cashier = await openPage(PHONE, cashierLocale.locale);
      await signInAs(app, cashier.page, 'Carl Cashier', PASSWORD, {
        words: cashierLocale,
        next: '/payouts',
      });
      await cashier.page.locator('input[type=file]').setInputFiles({
        name: 'payouts.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await cashier.page.getByRole('button', { name: language.batch }).click();
      await cashier.page.getByRole('status').filter({ hasText: /3/ }).waitFor();
      expect(await fitsWidth(cashier.page)).toBe(true);
      expect(await axeViolations(cashier.page)).toEqual([]);
      // The history's money out lists them, apart from the money in, waiting for an owner.
      await openInApp(cashier.page, '/transactions?money=out');
      const waiting = cashier.page.getByRole('table', { name: language.moneyOut });
      for (const phone of phones) {
        await expect
          .poll(() =>
            waiting
              .getByRole('row')
              .filter({ hasText: full(phone) })
              .innerText(),
          )
          .toContain(language.waiting);
      }
      expect(await fitsWidth(cashier.page)).toBe(true);
      expect(await axeViolations(cashier.page)).toEqual([]);
      // On the phone's history, money out comes folded under the payments, and opens.
      await cashier.page.goto(`${app.url}/transactions`);
      const folded = cashier.page.getByRole('region', { name: language.glance });
      await folded.locator('summary').click();
      await folded.getByRole('link', { name: language.everyPayout }).waitFor();
      expect(await fitsWidth(cashier.page)).toBe(true);
      expect(await axeViolations(cashier.page)).toEqual([]);
      expect(cashier.errors).toEqual([]);
      await cashier.context.close();

      const owner = await openPage(DESKTOP, language.sign.locale);
      await signInAs(app, owner.page, 'Olga Owner', PASSWORD, {
        words: language.sign,
        next: '/payouts',
      });
      const approve = owner.page.getByRole('button', { name: language.approve });
      await approve.first().click();
      // The Results come SIM_CALLBACK_DELAY_MS after each payout, on the simulator's clock.
      await callbacksNow(simulatorUrl);
      for (const phone of phones) {
        await polledIn(
          owner.page,
          card(owner.page, new RegExp(full(phone))).getByText(language.paid, { exact: true }),
        );
      }
      const after = await ledger();
      for (const [i, amount] of [1500, 800, 250].entries()) {
        expect(walletOf(after, full(phones[i]!)) - walletOf(before, full(phones[i]!))).toBe(
          amount * 100,
        );
      }
      // Out of the shortcode: the payouts and a charge of KES 22.40 each, to the cent.
      expect(accountsOf(before) - accountsOf(after)).toBe((1500 + 800 + 250) * 100 + 3 * 22_40);
      expect(await axeViolations(owner.page)).toEqual([]);
      // The history: each paid under Money out with its charge; money out and the balance at a
      // glance beside the money in.
      await openInApp(owner.page, '/transactions?money=out');
      const paid = owner.page.getByRole('table', { name: language.moneyOut });
      for (const phone of phones) {
        const row = paid.getByRole('row').filter({ hasText: full(phone) });
        // Paid, and its charge, which comes after (asked by transaction status: a B2C Result
        // carries none): the list asks again while either is awaited.
        await polledIn(
          owner.page,
          row.filter({ hasText: language.paid }).filter({ hasText: '22.4 KES' }),
        );
      }
      // The history's first page, the dashboard: money out and the balance beside the money in.
      await owner.page.goto(`${app.url}/transactions`);
      // Open on a wide screen, above the payments.
      const glance = owner.page.getByRole('region', { name: language.glance });
      if (index === 0) {
        // The first batch of this file's shop: today's money out is these three and their charges.
        await glance.getByText('Money out today: 2,550 KES').waitFor();
        await glance
          .getByText('Paid out today: 2,550 KES in 3 payouts, charges 67.2 KES.', { exact: false })
          .waitFor();
        // Not read yet in this shop: the owner asks M-PESA, and the line says what the
        // simulator's ledger holds, to the cent.
        await glance.getByText(language.balanceUnread).waitFor();
      }
      await glance.getByRole('button', { name: language.readNow }).click();
      await callbacksNow(simulatorUrl);
      const total = accountsOf(await ledger()) / 100;
      const shown = total.toLocaleString('en-KE', {
        minimumFractionDigits: Number.isInteger(total) ? 0 : 2,
        maximumFractionDigits: 2,
      });
      await polledIn(owner.page, glance.locator('.money-out-balance-line', { hasText: shown }));
      await glance.getByRole('heading', { name: language.balance }).waitFor();
      expect(await fitsWidth(owner.page)).toBe(true);
      expect(await axeViolations(owner.page)).toEqual([]);
      expect(owner.errors).toEqual([]);
      await owner.context.close();
    }, 120_000);
  }

  it('a payout whose acknowledgement is lost is recovered by transaction status without a second send', async () => {
    const phone = aPhone();
    const before = await ledger();
    const cashier = await openPage(DESKTOP);
    await signInAs(app, cashier.page, 'Carl Cashier', PASSWORD, { next: '/payouts' });
    const form = cashier.page.getByRole('form', { name: 'Propose a payout' });
    await form.getByLabel('Phone, till or paybill number').fill(phone);
    await form.getByLabel('Amount (KES)').fill('640');
    await form.getByLabel('Reason').fill('Lost answer');
    await form.getByRole('button', { name: 'Propose' }).click();
    await cashier.page.getByText('Proposed: it waits for a second owner’s approval.').waitFor();
    await cashier.context.close();

    // M-PESA takes the B2C request and pays, but its acknowledgement is lost on the way back, and
    // the Result that follows is lost too: the API is told nothing of the money that moved.
    await faults([
      { operation: 'b2c', probability: 1, error: 'lose-answer' },
      { operation: 'callback', probability: 1, error: 'drop' },
    ]);
    const owner = await openPage(PHONE);
    await signInAs(app, owner.page, 'Rita Owner', PASSWORD, { next: '/payouts' });
    const payout = card(owner.page, new RegExp(full(phone)));
    await payout.getByRole('button', { name: 'Approve' }).click();
    await payout.getByText('Sent, waiting for M-PESA', { exact: true }).waitFor();
    await callbacksNow(simulatorUrl);
    expect(walletOf(await ledger(), full(phone)) - walletOf(before, full(phone))).toBe(640_00);
    await faults([]);
    // The recovery asks after 1 s by the payout's own OriginatorConversationID; M-PESA's answer
    // says it was paid. Its Results come on the simulator's clock.
    for (let attempt = 0; attempt < 40; attempt++) {
      await callbacksNow(simulatorUrl);
      if ((await payout.getByText('Paid', { exact: true }).count()) > 0) break;
      await owner.page.clock.fastForward(2000);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await payout.getByText('Paid', { exact: true }).waitFor();
    // Recovered without a second send: one B2C request ever named this phone.
    expect(await b2cRequestsTo(full(phone))).toBe(1);
    const after = await ledger();
    expect(walletOf(after, full(phone)) - walletOf(before, full(phone))).toBe(640_00);
    expect(await fitsWidth(owner.page)).toBe(true);
    expect(await axeViolations(owner.page)).toEqual([]);
    expect(owner.errors).toEqual([]);
    await owner.context.close();
  }, 120_000);
  it('two owners approving at once send once; a stranger, a viewer and the proposer cannot approve', async () => {
    const phone = aPhone();
    const mine = aPhone();
    const before = await ledger();
    // The cashier proposes one payout; an owner proposes another, which she may not approve.
    const cashier = await openPage(DESKTOP);
    await signInAs(app, cashier.page, 'Carl Cashier', PASSWORD, { next: '/payouts' });
    await proposeOne(cashier.page, phone, '450', 'Both at once');
    await cashier.context.close();
    const rita = await openPage(PHONE);
    await signInAs(app, rita.page, 'Rita Owner', PASSWORD, { next: '/payouts' });
    await proposeOne(rita.page, mine, '300', 'My own');
    const own = card(rita.page, new RegExp(full(mine)));
    await own.getByText('Another owner must approve this one.').waitFor();
    expect(await own.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    // A viewer sees both, and is offered no approval (in Kiswahili, at 360 px).
    const vera = await openPage(PHONE, SIGN_IN.Kiswahili.locale);
    await signInAs(app, vera.page, 'Vera Viewer', PASSWORD, {
      words: SIGN_IN.Kiswahili,
      next: '/payouts',
    });
    await card(vera.page, new RegExp(full(phone))).waitFor();
    expect(await vera.page.getByRole('button', { name: /Idhinisha/ }).count()).toBe(0);
    expect(await axeViolations(vera.page)).toEqual([]);
    expect(vera.errors).toEqual([]);
    await vera.context.close();

    // A stranger (no session) is refused, and changes nothing.
    const stranger = await browser.newContext();
    const id = await payoutIdTo(rita.page, full(phone));
    const refused = await stranger.request.post(`${app.url}/api/payouts/${id}/approve`, {
      data: {},
    });
    expect([401, 403]).toContain(refused.status());
    await stranger.close();

    // Both owners press Approve on the cashier's payout at the same moment.
    const olga = await openPage(DESKTOP);
    await signInAs(app, olga.page, 'Olga Owner', PASSWORD, { next: '/payouts' });
    await rita.page.reload();
    const buttons = [rita.page, olga.page].map((page) =>
      card(page, new RegExp(full(phone))).getByRole('button', { name: 'Approve' }),
    );
    await Promise.all(buttons.map((button) => button.waitFor()));
    await Promise.all(buttons.map((button) => button.click()));
    // One of them is told it was decided already; the payout is sent once.
    await expect
      .poll(
        async () =>
          (
            await Promise.all(
              [rita.page, olga.page].map((page) =>
                page
                  .getByRole('alert')
                  .filter({ hasText: 'This payout is no longer waiting for approval' })
                  .count(),
              ),
            )
          ).reduce((sum, each) => sum + each, 0),
        { timeout: 10_000 },
      )
      .toBe(1);
    await callbacksNow(simulatorUrl);
    await polledIn(
      olga.page,
      card(olga.page, new RegExp(full(phone))).getByText('Paid', { exact: true }),
    );
    expect(await b2cRequestsTo(full(phone))).toBe(1);
    const after = await ledger();
    expect(walletOf(after, full(phone)) - walletOf(before, full(phone))).toBe(450_00);
    expect(walletOf(after, full(mine)) - walletOf(before, full(mine))).toBe(0);
    for (const { page, errors } of [rita, olga]) {
      expect(await fitsWidth(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      // The refused approval's 409 is the browser's own console line, which pageKeepingErrors skips.
      expect(errors).toEqual([]);
    }
    await rita.context.close();
    await olga.context.close();
  }, 120_000);
});
