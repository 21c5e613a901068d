/**
 * Every screen in Kiswahili as well as English (docs/product.md): a browser whose language is
 * Kiswahili opens the app in Kiswahili, the header's switch changes it and the choice is
 * remembered, `?lang=` chooses it from a link; the form, a failed payment's page (people's words,
 * the timeline's marks, Daraja's words one click away) and "Page not found" pass axe at 360 and
 * 1280 px. The history, the export, "I have paid" and the operators' screens are checked in both
 * languages in their own files.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fitsWidth, workerBrowser } from './browser.ts';
import { axeViolations, DESKTOP, PHONE } from './page-checks.ts';
import { stack } from './stack.ts';
import { settleNow } from './time.ts';

const { appUrl, simulatorUrl } = stack();

let browser: Browser;
beforeAll(async () => {
  browser = await workerBrowser();
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

let numbers = 0;

/** A number of this file's own, that the simulator answers with `outcome` after its delay. */
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

/** What a failed payment's page (a wrong PIN, 2001) says, in each language. */
const FAILED_PAGE = {
  English: {
    locale: 'en-KE',
    title: 'Transaction Details',
    status: 'Failed',
    sentence: 'The M-PESA PIN was wrong, so no money moved. Try again with your M-PESA PIN.',
    timeline: 'Timeline',
    step: /^Failed M-PESA told us: not paid\.$/,
    darajaWords: 'Daraja’s words',
    notFound: 'Page not found',
  },
  Kiswahili: {
    locale: 'sw-KE',
    title: 'Maelezo ya Muamala',
    status: 'Imeshindwa',
    sentence:
      'PIN ya M-PESA haikuwa sahihi, kwa hiyo hakuna pesa iliyotoka. Jaribu tena ukitumia PIN yako ya M-PESA.',
    timeline: 'Matukio',
    step: /^Imeshindwa M-PESA ilituambia: hayakulipwa\.$/,
    darajaWords: 'Maneno ya M-PESA yenyewe',
    notFound: 'Ukurasa haukupatikana',
  },
};

describe.each([
  ['English', PHONE],
  ['English', DESKTOP],
  ['Kiswahili', PHONE],
  ['Kiswahili', DESKTOP],
] as const)('a failed payment’s page in %s at %o', (language, viewport) => {
  const words = FAILED_PAGE[language];
  it('says what it means in plain words, marks the failed step in words and shape, keeps Daraja’s words one click away, and passes axe', async () => {
    const answer = await fetch(`${appUrl}/api/mpesa/stkpush`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ phoneNumber: await phoneAnswering('2001'), amount: 7 }),
    });
    const { transactionId } = (await answer.json()) as { transactionId: string };
    // Its callback now rather than 5 s after the push: the page opens on the failed payment.
    await settleNow({ appUrl, simulatorUrl }, transactionId, 'failed');
    const { context, page, errors } = await openContext(viewport, words.locale);
    await page.goto(`${appUrl}/transactions/${transactionId}`);
    await page.getByRole('heading', { name: words.title, exact: true }).waitFor();
    await page.locator('.status-badge', { hasText: words.status }).waitFor({ timeout: 20_000 });
    // In the rows (the status line says it too, to screen readers only).
    await page.locator('.detail-row dd').getByText(words.sentence).waitFor();

    const timeline = page.getByRole('region', { name: words.timeline });
    const failed = timeline.locator('li.timeline-event-failed');
    await failed.waitFor({ timeout: 10_000 });
    expect(await failed.locator('.timeline-event-title').textContent()).toMatch(words.step);
    // Not by colour alone: the failed step's dot is a square, a plain step's a circle.
    const radius = (item: typeof failed) =>
      item.evaluate((li) => getComputedStyle(li, '::before').borderTopLeftRadius);
    expect(await radius(failed)).toBe('0px');
    expect(await radius(timeline.locator('li').first())).toBe('50%');
    const daraja = failed.locator('details');
    expect(await daraja.evaluate((details: HTMLDetailsElement) => details.open)).toBe(false);
    await daraja.getByText(words.darajaWords).click();
    await daraja.getByText(/initiator information is invalid/i).waitFor();

    expect(await axeViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);

    await page.goto(`${appUrl}/nowhere-${language}`);
    await page.getByRole('heading', { name: words.notFound, exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
