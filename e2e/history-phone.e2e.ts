/// <reference lib="dom" />
/**
 * The history read on a phone and on a desktop, in light and dark, in English and in Kiswahili: a
 * search brings its count into view and announces it, Load more moves focus to the first new row,
 * amounts are grouped by thousands, the chart's days show their figures on focus and hover, and
 * axe finds nothing in either colour scheme. The payments are written straight into the API's
 * database.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { withApiDatabase } from './api-database.ts';
import { fitsWidth, workerBrowser } from './browser.ts';
import { axeViolations, DESKTOP, PHONE } from './page-checks.ts';
import { storedPayment } from '../apps/api/src/test/stored-payment.ts';
import { stack } from './stack.ts';

const { appUrl } = stack();
const PREFIX = 'PHONE-';

let browser: Browser;

beforeAll(async () => {
  browser = await workerBrowser();
  await withApiDatabase(async (db) => {
    const now = Date.now();
    for (let i = 0; i < 60; i++) {
      const at = new Date(now - (60 - i) * 1000).toISOString();
      await db
        .insertInto('transactions')
        .values(
          storedPayment(`phone-${String(i).padStart(3, '0')}`, at, {
            reference: `${PREFIX}${String(i).padStart(3, '0')}`,
            phone_number: `2547130${String(i).padStart(5, '0')}`,
            amount: 12_000 + i,
            status: i % 3 === 0 ? 'failed' : 'success',
            result_code: i % 3 === 0 ? '1' : '0',
          }),
        )
        .execute();
    }
  });
});

/** What the history says, in each language (the browser's language chooses it). */
const WORDS = {
  English: {
    locale: 'en-KE',
    search: 'Search',
    apply: 'Apply',
    shown: '50 payments shown, more with Load more.',
    loadMore: 'Load more',
    row: `View details of ${PREFIX}009, 12,009 KES, Failed`,
    found: '60 payments found.',
    glance: 'At a glance',
    paid: /Paid: \d{1,3}(,\d{3})+ KES \(\d+\)/,
    table: 'Transaction History',
  },
  Kiswahili: {
    locale: 'sw-KE',
    search: 'Tafuta',
    apply: 'Chuja',
    shown: 'Miamala 50 inaonyeshwa, zaidi kwa Pakia zaidi.',
    loadMore: 'Pakia zaidi',
    row: `Angalia maelezo ya ${PREFIX}009, 12,009 KES, Imeshindwa`,
    found: 'Miamala 60 imepatikana.',
    glance: 'Kwa muhtasari',
    paid: /Imelipwa: \d{1,3}(,\d{3})+ KES \(\d+\)/,
    table: 'Historia ya Miamala',
  },
};

/** A page of the given size, language and colour scheme; axe needs the page's CSP bypassed. */
async function open(
  viewport: { width: number; height: number },
  locale: string,
  colorScheme: 'light' | 'dark' = 'light',
  bypassCSP = false,
): Promise<Page> {
  const context = await browser.newContext({ viewport, colorScheme, bypassCSP, locale });
  return context.newPage();
}

/** What has focus: its text, its accessible label, and whether it is in a live region. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const box = element.getBoundingClientRect();
    return {
      text: element.textContent,
      label: element.getAttribute('aria-label'),
      live: element.closest('[role="status"]') !== null,
      inView: box.top >= 0 && box.bottom <= window.innerHeight,
    };
  });

describe.each([
  ['phone', PHONE, 'English'],
  ['desktop', DESKTOP, 'English'],
  ['phone', PHONE, 'Kiswahili'],
  ['desktop', DESKTOP, 'Kiswahili'],
] as const)('the history on a %s in %s', (_name, viewport, language) => {
  const words = WORDS[language];
  it('brings a search’s count into view and announces it, and Load more focuses the first new row', async () => {
    const page = await open(viewport, words.locale);
    try {
      await page.goto(`${appUrl}/transactions`);
      await page.getByRole('searchbox', { name: words.search }).fill(PREFIX);
      await page.getByRole('button', { name: words.apply }).click();
      await page.getByText(words.shown).waitFor();
      await expect
        .poll(() => focused(page))
        .toEqual({
          text: words.shown,
          label: null,
          live: true,
          inView: true,
        });

      const amounts = await page.locator('td[data-label="Amount"]').allTextContents();
      expect(amounts[0]).toBe('12,059 KES');
      // One line each: an amount never breaks (its text is drawn in one box).
      const lines = await page
        .locator('td[data-label="Amount"]')
        .first()
        .evaluate((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return range.getClientRects().length;
        });
      expect(lines).toBe(1);

      await page.getByRole('button', { name: words.loadMore }).click();
      await expect.poll(async () => (await focused(page)).label).toBe(words.row);
      expect(await page.getByText(words.found).isVisible()).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
    } finally {
      await page.context().close();
    }
  });

  it('draws the chart across its card, each day’s figures shown on focus and on hover', async () => {
    const page = await open(viewport, words.locale);
    try {
      await page.goto(`${appUrl}/transactions`);
      const glance = page.getByRole('region', { name: words.glance });
      await glance.waitFor();
      const days = glance.getByRole('img');
      await expect.poll(() => days.count()).toBe(14);
      const today = days.last();
      expect(await today.getAttribute('aria-label')).toMatch(words.paid);
      // Bars drawn (the page's Content-Security-Policy leaves a style set by script alone).
      const paid = await today.locator('.bar-paid').boundingBox();
      expect(paid!.height).toBeGreaterThan(10);

      await today.focus();
      expect(await today.locator('.chart-tip').isVisible()).toBe(true);
      expect(await today.locator('.chart-tip').textContent()).toMatch(words.paid);
      await days.first().hover();
      expect(await days.first().locator('.chart-tip').isVisible()).toBe(true);

      const card = (await page.locator('.transaction-list').boundingBox())!;
      const chart = (await page.locator('.chart').boundingBox())!;
      expect(chart.width).toBeGreaterThan(card.width * 0.8);
      expect(await fitsWidth(page)).toBe(true);
    } finally {
      await page.context().close();
    }
  });

  it.each(['light', 'dark'] as const)('passes axe in %s mode', async (scheme) => {
    const page = await open(viewport, words.locale, scheme, true);
    try {
      await page.goto(`${appUrl}/transactions?q=${PREFIX}`);
      await page.getByRole('table', { name: words.table }).waitFor();
      await page.getByRole('region', { name: words.glance }).getByRole('img').last().focus();
      const background = await page.evaluate(
        () => getComputedStyle(document.documentElement).backgroundColor,
      );
      expect(background).toBe(scheme === 'dark' ? 'rgb(18, 20, 18)' : 'rgb(246, 247, 246)');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });
});
