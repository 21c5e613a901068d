/**
 * The owner's screens (Operators, API keys, Webhooks, the Audit trail) laid out for a phone and a
 * desktop, in English and Kiswahili: no header or button breaks inside a word, nothing sticks out
 * of the page, and axe passes. And the audit trail reads as words: a cashier who set their own
 * password by a one-time link is named as its doer, linked to the Operators screen, and no line
 * shows the stored JSON.
 *
 * This file starts an API of its own (HISTORY_ACCESS=operators), with something on each screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openInApp, workerBrowser } from './browser.ts';
import { DESKTOP, PHONE, axeViolations, sticksOut, wordsSplit } from './page-checks.ts';
import {
  pageKeepingErrors,
  signInAs,
  type OperatorsApp,
  PASSWORD,
  startWithOperators,
} from './operators-app.ts';
import { stack } from './stack.ts';

const { simulatorUrl } = stack();
const OWNER = 'Wanjiru Owner';
const CASHIER = 'Cate Cashier';

let browser: Browser;
let app: OperatorsApp;

/**
 * An owner's page signed in on `next`, recording console errors other than the browser's line for
 * a 4xx.
 */
async function ownerPage(viewport: { width: number; height: number }, next: string) {
  const opened = await pageKeepingErrors(browser, viewport);
  await signInAs(app, opened.page, OWNER, PASSWORD, { next });
  return opened;
}

/**
 * Something on each screen, made as an owner makes it: a cashier added, who sets their password
 * with the link; a key; a webhook endpoint at the simulator's receiver.
 */
async function fillTheScreens() {
  const { context, page, errors } = await ownerPage(DESKTOP, '/operators');
  await page.getByLabel('Name', { exact: true }).fill(CASHIER);
  await page.getByRole('radio', { name: /^Cashier/ }).check();
  await page.getByRole('button', { name: 'Add operator' }).click();
  const link = (await page.locator('.once-shown-secret').textContent()) ?? '';
  await page.getByRole('button', { name: 'Done' }).click();

  const cashier = await pageKeepingErrors(browser, PHONE);
  await cashier.page.goto(link);
  await cashier.page.getByLabel('New password').fill(PASSWORD);
  await cashier.page.getByLabel('The same password again').fill(PASSWORD);
  await cashier.page.getByRole('button', { name: 'Set password' }).click();
  await cashier.page.getByText(/Your password is set/).waitFor();
  await cashier.context.close();

  await openInApp(page, '/keys');
  await page.getByLabel('Name', { exact: true }).fill('Till 2');
  await page.getByRole('radio', { name: /^Read payments/ }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'Done' }).click();

  await openInApp(page, '/webhooks');
  await page.getByRole('button', { name: 'Use the simulator’s receiver' }).click();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByRole('button', { name: 'Done' }).click();
  const receiver = `${simulatorUrl}/_sim/webhooks/inbox`;
  await page.getByRole('button', { name: `Send a test event: ${receiver}` }).click();
  await page.locator('.webhook-deliveries tbody tr').waitFor();
  expect([...errors, ...cashier.errors]).toEqual([]);
  await context.close();
}

beforeAll(async () => {
  app = await startWithOperators(simulatorUrl, [[OWNER, 'owner']]);
  browser = await workerBrowser();
  await fillTheScreens();
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

/** Each screen, its heading in each language, and what shows it has loaded. */
const SCREENS = [
  { path: '/operators', en: 'Operators', sw: 'Wahudumu', loaded: 'tbody tr' },
  { path: '/keys', en: 'API keys', sw: 'Funguo za API', loaded: 'tbody tr' },
  { path: '/webhooks', en: 'Webhooks', sw: 'Webhooks', loaded: '.webhook-deliveries tbody tr' },
  { path: '/audit', en: 'Audit trail', sw: 'Rekodi ya shughuli', loaded: 'tbody tr' },
] as const;

/** What must read whole: the screens' column headers and buttons. */
const WHOLE = '.owner-screen th, .owner-screen button, .owner-screen .button';

/**
 * Tables wider than the card they are in, the screen's or a webhook endpoint's (the page itself
 * may not scroll yet).
 */
async function tablesOutOfTheirCard(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.owner-screen table')].flatMap((table) => {
      const card = table.closest('.webhook-endpoint, .owner-screen')!.getBoundingClientRect();
      const box = table.getBoundingClientRect();
      const name = table.getAttribute('aria-labelledby') ?? 'a table';
      return box.right > card.right + 0.5 ? [`${name} ends at ${box.right}px`] : [];
    }),
  );
}

async function chooseKiswahili(page: Page) {
  await page
    .getByRole('group', { name: 'Language' })
    .getByRole('button', { name: 'Kiswahili' })
    .click();
  await page.getByRole('group', { name: 'Lugha' }).waitFor();
}

describe.each(
  (['en', 'sw'] as const).flatMap((language) =>
    [PHONE, DESKTOP].map((viewport) => [language, viewport.width, viewport] as const),
  ),
)('the owner’s screens in %s at %i px', (language, _width, viewport) => {
  it('break no header or button inside a word, fit the page, and pass axe', async () => {
    const { context, page, errors } = await ownerPage(viewport, SCREENS[0].path);
    if (language === 'sw') await chooseKiswahili(page);
    for (const [index, screen] of SCREENS.entries()) {
      // The first is where signing in led; the others are opened from it, as the header's links do.
      if (index > 0) await openInApp(page, screen.path);
      await page.getByRole('heading', { level: 2, name: screen[language] }).waitFor();
      await page.locator(`.owner-screen ${screen.loaded}`).first().waitFor();
      expect(await wordsSplit(page, WHOLE), screen.path).toEqual([]);
      expect(await sticksOut(page), screen.path).toEqual([]);
      expect(await tablesOutOfTheirCard(page), screen.path).toEqual([]);
      expect(await axeViolations(page), screen.path).toEqual([]);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the audit trail', () => {
  it('names the cashier who set their own password, links what it names, and shows no JSON', async () => {
    const { context, page, errors } = await ownerPage(DESKTOP, '/audit');
    const set = page.locator('tbody tr', { hasText: 'Set their password' });
    await set.waitFor();
    expect(await set.textContent()).toContain('with a one-time link');
    expect(await set.textContent()).not.toContain('not signed in');
    const [, who, , target] = await set.locator('td').all();
    expect(await who!.getByRole('link', { name: CASHIER }).getAttribute('href')).toBe('/operators');
    expect(await target!.getByRole('link', { name: CASHIER }).getAttribute('href')).toBe(
      '/operators',
    );

    const key = page.locator('tbody tr', { hasText: 'Created an API key' });
    expect(await key.textContent()).toContain('may Read payments');
    expect(await key.getByRole('link', { name: 'Till 2' }).getAttribute('href')).toBe('/keys');
    const endpoint = page.locator('tbody tr', { hasText: 'Added a webhook endpoint' });
    expect(
      await endpoint
        .getByRole('link', { name: `${simulatorUrl}/_sim/webhooks/inbox` })
        .getAttribute('href'),
    ).toBe('/webhooks');
    expect(await page.locator('table').textContent()).not.toMatch(/[{}[\]]|payments:read/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
