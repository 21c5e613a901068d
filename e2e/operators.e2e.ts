/**
 * HISTORY_ACCESS=operators end to end: the payer's flow shows no one else's data, and each role
 * signed in sees and does what it may, at 360 and 1280 px, with axe (every role's screens, each
 * language and width: role-screens.e2e.ts). A browser logs every 4xx
 * answer in its console ("Failed to load resource"): here they are expected (a payer asking for
 * the history), so only other console errors fail a test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fitsWidth, openInApp, slowNetwork, workerBrowser } from './browser.ts';
import { DESKTOP, PHONE, axeViolations, newContext } from './page-checks.ts';
import {
  pay as payFromForm,
  phoneAnswering as phoneAnsweringWith,
  signInAs,
  withAppDatabase,
  type OperatorsApp,
  PASSWORD,
  startWithOperators,
} from './operators-app.ts';
import { englishWordsShown, pathsLinked } from './payer-words.ts';
import { stack } from './stack.ts';
import { callbacksNow, polledIn } from './time.ts';

const { simulatorUrl } = stack();

let browser: Browser;
let app: OperatorsApp;

beforeAll(async () => {
  app = await startWithOperators(simulatorUrl, [
    ['Olive Owner', 'owner'],
    ['Cate Cashier', 'cashier'],
    ['Vic Viewer', 'viewer'],
  ]);
  browser = await workerBrowser();
}, 90_000);
afterAll(async () => {
  await app?.stop();
});

/** A number of this file's own, that the simulator answers with `outcome` after its delay. */
const phoneAnswering = (outcome: string) => phoneAnsweringWith(simulatorUrl, outcome);
const local = (international: string) => `0${international.slice(3)}`;

/** A page that records console errors other than the browser's own line for a 4xx answer. */
async function openPage(
  viewport: { width: number; height: number },
  locale = 'en-KE',
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newContext(browser, viewport, locale);
  const page = await context.newPage();
  // Its clock, moved on to the next poll once M-PESA has answered (time.ts).
  await page.clock.install();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (
      /Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
    ) {
      return;
    }
    errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

const pay = (page: Page, phone: string, amount: string, reference: string) =>
  payFromForm(app, page, phone, amount, reference);

const row = (page: Page, label: string) =>
  page.locator('.detail-row', { has: page.locator('dt', { hasText: label }) }).locator('dd');

/** Signs `name` in (in English), and waits until the header says so, on `next` if given. */
const signIn = (page: Page, name: string, next?: string) =>
  signInAs(app, page, name, PASSWORD, { next });
/** A page's path, to open it from another screen of the app (openInApp). */
const pathOf = (url: string) => new URL(url).pathname;

/** Two payments made before the tests below: one paid, one whose prompt timed out. */
let paidUrl = '';
let paidPhone = '';
let timedOutUrl = '';

describe('the payer, with the history for operators only', () => {
  it('pays, sees their own number only in part, no timeline, and no one else’s payments', async () => {
    const { context, page, errors } = await openPage(PHONE);
    paidPhone = await phoneAnswering('0');
    paidUrl = await pay(page, local(paidPhone), '120', 'E2E OPS PAID');
    await callbacksNow(simulatorUrl);
    await polledIn(page, page.locator('.status-badge', { hasText: 'Success' }));
    const shown = (await row(page, 'Phone Number').textContent()) ?? '';
    expect(shown).toMatch(/^07\d\d ••• \d{3}$/);
    expect(shown.slice(-3)).toBe(paidPhone.slice(-3));
    expect(await row(page, 'What this means').textContent()).toBe(
      'You paid. M-PESA sends you a confirmation message.',
    );
    expect(await page.getByRole('heading', { name: 'Timeline' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);

    // No way to the history they cannot open: no "Transactions", no "Back to Transactions".
    expect(await page.locator(`a[href="/transactions"]`).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Make Another Payment' }).count()).toBe(1);
    // Its address, typed, asks them to sign in, and shows no one's payments.
    await page.goto(`${app.url}/transactions`);
    await page.getByText('Sign in to see this.').first().waitFor();
    expect(await page.locator('.transaction-table').count()).toBe(0);
    expect(await page.content()).not.toContain(paidPhone.slice(3));
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('walks a payer in Kiswahili at 360 px on a slow network: Pay in view, no English of ours, no link they cannot follow', async () => {
    const { context, page, errors } = await openPage(PHONE, 'sw-KE');
    await slowNetwork(context, page);
    /** The page speaks Kiswahili only, and links only to where a payer may go. */
    const payerMayFollow = async (own: string[]) => {
      expect(await englishWordsShown(page)).toEqual([]);
      for (const linked of await pathsLinked(page))
        expect(['/', '/sign-in', ...own]).toContain(linked);
      expect(await axeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
    };

    await page.goto(app.url, { timeout: 60_000 });
    const pay = page.getByRole('button', { name: 'Lipa kwa M-PESA' });
    await pay.waitFor({ timeout: 30_000 });
    // On a 740 px screen the button is in view before any scrolling, below the optional fields.
    const box = (await pay.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    await payerMayFollow([]);

    // Reference and description left empty; the PIN entered wrong.
    const phone = await phoneAnswering('2001');
    await page.getByLabel('Nambari ya Simu').fill(local(phone));
    await page.getByLabel('Kiasi (KES)').fill('35');
    // The description, focused, is not hidden under the button that stays in view.
    await page.getByLabel('Maelezo').focus();
    const field = (await page.getByLabel('Maelezo').boundingBox())!;
    expect(field.y + field.height).toBeLessThanOrEqual((await pay.boundingBox())!.y);
    await pay.click();
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    const own = new URL(page.url()).pathname;
    await callbacksNow(simulatorUrl);
    await polledIn(page, page.locator('.status-badge', { hasText: 'Imeshindwa' }), 30_000);
    expect(await row(page, 'Kumbukumbu').textContent()).toBe('Malipo');
    expect(await row(page, 'Maelezo').textContent()).toBe('Malipo ya huduma');
    expect(await row(page, 'Maana yake').textContent()).toMatch(/^PIN ya M-PESA haikuwa sahihi/);
    // M-PESA's own English is one click away, in the Response row.
    await page.getByText('Kwa Kiingereza, kama M-PESA ilivyoandika').waitFor();
    expect(await page.getByText('The initiator information is invalid.').isVisible()).toBe(false);
    await payerMayFollow([own]);
    await page.getByText('Kwa Kiingereza, kama M-PESA ilivyoandika').click();
    await page.getByText('The initiator information is invalid.').waitFor();

    // "Jaribu tena": the same number, as typed in this tab, and the same amount; nothing invented.
    await page.getByRole('link', { name: 'Jaribu tena' }).click();
    await pay.waitFor();
    expect(await page.getByLabel('Nambari ya Simu').inputValue()).toBe(local(phone));
    expect(await page.getByLabel('Kiasi (KES)').inputValue()).toBe('35');
    expect(await page.getByLabel('Maelezo').inputValue()).toBe('');
    await payerMayFollow([own]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offers "Try again" on their own timed-out payment, and not to whoever opens its link', async () => {
    const { context, page, errors } = await openPage(PHONE);
    const phone = await phoneAnswering('1037');
    timedOutUrl = await pay(page, local(phone), '130', 'E2E OPS AGAIN');
    await callbacksNow(simulatorUrl);
    await polledIn(page, page.locator('.status-badge', { hasText: 'Timeout' }));
    expect(await page.getByRole('link', { name: 'Try again' }).count()).toBe(1);
    await page.reload();
    await page.locator('.status-badge', { hasText: 'Timeout' }).waitFor();
    expect(await page.getByRole('link', { name: 'Try again' }).count()).toBe(1);

    const stranger = await openPage(PHONE);
    await stranger.page.goto(timedOutUrl);
    await stranger.page.locator('.status-badge', { hasText: 'Timeout' }).waitFor();
    expect(await stranger.page.getByRole('link', { name: 'Try again' }).count()).toBe(0);
    expect(await stranger.page.content()).not.toContain(phone.slice(3));

    // The payer's own tab fills in the number they typed, which their page shows only in part.
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.getByLabel('Amount (KES)').waitFor();
    expect(await page.getByLabel('Phone Number').inputValue()).toBe(local(phone));
    expect(await page.getByLabel('Amount (KES)').inputValue()).toBe('130');
    expect([...errors, ...stranger.errors]).toEqual([]);
    await stranger.context.close();
    await context.close();
  });
});

for (const viewport of [PHONE, DESKTOP]) {
  describe(`a viewer at ${viewport.width} px`, () => {
    it('reads the history and the merchant’s view of a payment, with no Try again and no review', async () => {
      const { context, page, errors } = await openPage(viewport);
      await signIn(page, 'Vic Viewer', '/transactions');
      await page.locator('.transaction-table').getByText('E2E OPS PAID').first().waitFor();
      // On a phone the newest payment starts within a screen and a half (it was on the third),
      // under the header, the figures, the chart and the folded filters beside Apply.
      const firstRow = await page.locator('.transaction-table tbody tr').first().boundingBox();
      if (viewport === PHONE) expect(firstRow!.y).toBeLessThan(1.5 * viewport.height);
      // The export is an owner's.
      expect(await page.getByRole('link', { name: 'Export CSV' }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);

      await openInApp(page, pathOf(timedOutUrl));
      await page.getByRole('heading', { name: 'Timeline' }).waitFor();
      expect(await row(page, 'What this means').textContent()).toBe(
        'The customer did not answer the prompt in time. No money moved.',
      );
      expect(await page.getByRole('link', { name: 'Try again' }).count()).toBe(0);
      await page.getByText('M-PESA’s own messages').click();
      await page.getByText(/"ResultCode": 1037/).waitFor();
      expect(await page.getByRole('button', { name: 'Save review' }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);

      await openInApp(page, pathOf(paidUrl));
      await page.locator('.status-badge', { hasText: 'Success' }).waitFor();
      expect(await row(page, 'Phone Number').textContent()).toBe(paidPhone);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}

describe('payment requests by the shop', () => {
  it('a cashier asks a customer for a payment from the form, and follows it in the merchant’s view', async () => {
    const { context, page, errors } = await openPage(PHONE);
    await signIn(page, 'Cate Cashier');
    const phone = await phoneAnswering('0');
    await pay(page, local(phone), '140', 'E2E OPS CASHIER');
    await page
      .getByText(/Waiting for the customer|The customer paid/)
      .first()
      .waitFor();
    await callbacksNow(simulatorUrl);
    await polledIn(page, page.locator('.status-badge', { hasText: 'Success' }));
    expect(await row(page, 'Phone Number').textContent()).toBe(phone);
    expect(await axeViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a viewer signed in is told their role cannot ask for payments, and no prompt is sent', async () => {
    const { context, page, errors } = await openPage(DESKTOP);
    await signIn(page, 'Vic Viewer', '/');
    const phone = await phoneAnswering('0');
    await page.getByLabel('Phone Number').fill(local(phone));
    await page.getByLabel('Amount (KES)').fill('150');
    await page.getByRole('button', { name: 'Pay with M-PESA' }).click();
    await page
      .locator('.error-message')
      .getByText('Your role does not allow this. Ask an owner.')
      .waitFor();
    const prompts = (await (await fetch(`${simulatorUrl}/_sim/prompts?phone=${phone}`)).json()) as {
      prompts: unknown[];
    };
    expect(prompts.prompts).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the owner', () => {
  it('adds an operator, who sets a password by the one-time link and signs in (1280 px, then 360 px)', async () => {
    const owner = await openPage(DESKTOP);
    await signIn(owner.page, 'Olive Owner');
    await owner.page
      .getByRole('navigation', { name: 'Owner' })
      .getByRole('link', { name: 'Operators' })
      .click();
    await owner.page.getByRole('heading', { name: 'Operators' }).waitFor();
    await owner.page.getByText('Vic Viewer').first().waitFor();
    expect(await axeViolations(owner.page)).toEqual([]);
    await owner.page.getByLabel('Name').fill('Nora New');
    await owner.page.getByRole('radio', { name: /Viewer/ }).check();
    await owner.page.getByRole('button', { name: 'Add operator' }).click();
    const link = (await owner.page.locator('.once-shown-secret').textContent()) ?? '';
    expect(link).toMatch(/\/set-password#[A-Za-z0-9_-]{20,}$/);
    expect(await axeViolations(owner.page)).toEqual([]);

    const newcomer = await openPage(PHONE);
    await newcomer.page.goto(link);
    await newcomer.page.getByRole('heading', { name: 'Set your password' }).waitFor();
    // The token leaves the address bar once read.
    expect(newcomer.page.url()).not.toContain('#');
    expect(await axeViolations(newcomer.page)).toEqual([]);
    await newcomer.page.getByLabel('New password').fill(PASSWORD);
    await newcomer.page.getByLabel('The same password again').fill(PASSWORD);
    await newcomer.page.getByRole('button', { name: /Set/ }).click();
    await newcomer.page.getByText(/Your password is set/).waitFor();
    await signIn(newcomer.page, 'Nora New');
    expect(await fitsWidth(newcomer.page)).toBe(true);

    // The link worked once.
    const again = await openPage(PHONE);
    await again.page.goto(link);
    await again.page.getByLabel('New password').fill(PASSWORD);
    await again.page.getByLabel('The same password again').fill(PASSWORD);
    await again.page.getByRole('button', { name: /Set/ }).click();
    await again.page.getByRole('alert').getByText(/owner/).waitFor();
    expect([...owner.errors, ...newcomer.errors, ...again.errors]).toEqual([]);
    for (const each of [owner, newcomer, again]) await each.context.close();
  });

  for (const viewport of [PHONE, DESKTOP]) {
    it(`creates an API key that works until it is revoked, and reads it all in the audit trail (${viewport.width} px)`, async () => {
      const { context, page, errors } = await openPage(viewport);
      await signIn(page, 'Olive Owner', '/keys');
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      const name = `Till ${viewport.width}`;
      await page.getByLabel('Name').fill(name);
      await page.getByRole('radio', { name: /^Read payments/ }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = (await page.locator('.once-shown-secret').textContent()) ?? '';
      expect(key).toMatch(/^mpk_/);
      expect(await axeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      const read = () =>
        fetch(`${app.url}/api/mpesa/transactions`, { headers: { authorization: `Bearer ${key}` } });
      expect((await read()).status).toBe(200);

      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('button', { name: `Revoke ${name}` }).click();
      await page
        .getByRole('button', { name: `Revoke ${name}` })
        .last()
        .click();
      // Refused from the moment the revocation is answered (an earlier test's key says "Revoked" too).
      await expect.poll(async () => (await read()).status).toBe(401);

      await openInApp(page, '/audit');
      await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
      await page.getByText('Revoked an API key').first().waitFor();
      await page.getByText('Created an API key').first().waitFor();
      await page.getByText('Signed in').first().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('reviews a flagged payment from its page, with a note the timeline keeps', async () => {
    const id = paidUrl.split('/').pop()!;
    await withAppDatabase(app, (db) =>
      db
        .updateTable('transactions')
        .set({ flagged_reason: 'M-PESA says 100 KES were paid; 120 KES were asked for.' })
        .where('id', '=', id)
        .execute(),
    );
    const { context, page, errors } = await openPage(PHONE);
    await signIn(page, 'Olive Owner', pathOf(paidUrl));
    await page
      .getByRole('note')
      .getByText(/100 KES were paid/)
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page
      .getByLabel('Why (kept on the payment’s timeline)')
      .fill('Customer paid the rest in cash');
    await page.getByRole('button', { name: 'Save review' }).click();
    await page.getByText(/^Review saved\./).waitFor();
    // The timeline says who checked it, in plain words; the note is one click away.
    const step = page
      .getByRole('region', { name: 'Timeline' })
      .locator('li', { hasText: 'Olive Owner checked this payment: Success.' });
    await step.waitFor();
    await step.getByText('Daraja’s words').click();
    await step.getByText(/Customer paid the rest in cash/).waitFor();
    expect(await page.getByRole('note').count()).toBe(0);
    expect(await fitsWidth(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is the only one who sees the owner’s screens: a cashier is told so', async () => {
    const { context, page } = await openPage(PHONE);
    await signIn(page, 'Cate Cashier');
    expect(await page.getByRole('navigation', { name: 'Owner' }).count()).toBe(0);
    await page.goto(`${app.url}/operators`);
    await page.getByRole('alert').getByText(/role/i).waitFor();
    expect(await page.getByText('Olive Owner').count()).toBe(0);
    await context.close();
  });
});
