/**
 * Every screen in Kiswahili as well as English (docs/product.md, "Languages"): a browser whose
 * language is Kiswahili opens the app in Kiswahili, the header's switch changes it and the choice
 * is remembered, `?lang=` chooses it from a link, and each screen in Kiswahili passes axe at 360
 * and 1280 px. The English of the specification is asserted by the other browser tests.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fitsWidth, launchBrowser } from './browser.ts';
import { axeViolations, DESKTOP, PHONE } from './page-checks.ts';

const appUrl = inject('appUrl');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh browser profile with the given languages (what navigator.languages says). */
async function openContext(
  viewport: { width: number; height: number },
  locale: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  // axe is injected as a script, which the pages' own Content-Security-Policy would rightly refuse.
  const context = await browser.newContext({ viewport, locale, bypassCSP: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

const languageSwitch = (page: Page) => page.getByRole('group', { name: /^(Language|Lugha)$/ });

describe.each([
  ['360 px', PHONE],
  ['1280 px', DESKTOP],
])('Kiswahili at %s', (_width, viewport) => {
  it('opens in Kiswahili for a browser in Kiswahili, the form and its checks in Kiswahili, and passes axe', async () => {
    const { context, page, errors } = await openContext(viewport, 'sw-KE');
    await page.goto(appUrl);
    await page.getByRole('heading', { name: 'Malipo ya M-PESA', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');
    expect(await page.title()).toBe('Lipa · Malipo kwa M-PESA');
    // The switch offers the other language, in its own words.
    await languageSwitch(page).getByRole('button', { name: 'English' }).waitFor();
    await page.getByRole('link', { name: 'Fungua kiigaji cha Daraja' }).waitFor();
    await page.getByLabel('Nambari ya Simu').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);

    await page.getByRole('button', { name: 'Lipa kwa M-PESA' }).click();
    await page.getByText('Tafadhali weka nambari sahihi ya simu ya Kenya').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('changes language with the header’s switch, remembers it, and takes ?lang= from a link', async () => {
    const { context, page, errors } = await openContext(viewport, 'en-KE');
    await page.goto(appUrl);
    await page.getByRole('heading', { name: 'M-PESA Payment', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    await languageSwitch(page).getByRole('button', { name: 'Kiswahili' }).click();
    await page.getByRole('heading', { name: 'Malipo ya M-PESA', exact: true }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Malipo ya M-PESA', exact: true }).waitFor();

    await page.goto(`${appUrl}/?lang=en`);
    await page.getByRole('heading', { name: 'M-PESA Payment', exact: true }).waitFor();
    await page.goto(appUrl);
    await page.getByRole('heading', { name: 'M-PESA Payment', exact: true }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
