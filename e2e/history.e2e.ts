/**
 * The history as a merchant uses it: more than a page of payments, Load more, a status
 * filter and a search that live in the address (surviving a reload, undone by Back). The payments
 * are written straight into the API's database: sixty through the simulator would take minutes.
 */
import fs from 'node:fs';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { withApiDatabase } from './api-database.ts';
import { fitsWidth, workerBrowser, networkQuiet, phonePage } from './browser.ts';
import { storedPayment } from '../apps/api/src/test/stored-payment.ts';
import { stack } from './stack.ts';
import { POLL_INTERVAL_MS, polledIn } from './time.ts';

const { appUrl } = stack();
const PREFIX = 'HIST-';
const SHOP_PHONE = '254711999001';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await workerBrowser();
  await withApiDatabase(async (db) => {
    const base = Date.parse('2026-11-01T08:00:00.000Z');
    for (let i = 0; i < 60; i++) {
      const at = new Date(base + i * 60_000).toISOString();
      await db
        .insertInto('transactions')
        .values(
          storedPayment(`hist-${String(i).padStart(3, '0')}`, at, {
            reference: `${PREFIX}${String(i).padStart(3, '0')}`,
            phone_number: i % 10 === 0 ? SHOP_PHONE : `2547120${String(i).padStart(5, '0')}`,
            amount: 100 + i,
            status: i % 4 === 0 ? 'failed' : 'success',
            result_code: i % 4 === 0 ? '1' : '0',
          }),
        )
        .execute();
    }
  });
});
beforeEach(async () => {
  ({ page } = await phonePage(browser));
  return () => page.context().close();
});

const references = () => page.locator('td[data-label="Reference"]').allTextContents();

/** On a phone the filters beside the search are folded while none is in use: opened. */
async function openFilters() {
  const more = page.locator('details.more-filters');
  if (!(await more.evaluate((details: HTMLDetailsElement) => details.open))) {
    await more.locator('summary').click();
  }
}

describe('the history', () => {
  it('shows 50 payments, then the rest with Load more', async () => {
    await page.goto(`${appUrl}/transactions?q=${PREFIX}`);
    await expect.poll(async () => (await references()).length).toBe(50);
    expect((await references())[0]).toBe(`${PREFIX}059`);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(async () => (await references()).length).toBe(60);
    expect((await references()).at(-1)).toBe(`${PREFIX}000`);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(await fitsWidth(page)).toBe(true);
  });

  it('filters by status in the address, keeps it over a reload, and Back undoes it', async () => {
    await page.goto(`${appUrl}/transactions?q=${PREFIX}`);
    await expect.poll(async () => (await references()).length).toBe(50);
    await openFilters();
    await page.getByRole('checkbox', { name: 'Failed' }).check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll('status')).toEqual(['failed']);
    await expect.poll(async () => (await references()).length).toBe(15);
    await page.reload();
    await expect.poll(async () => (await references()).length).toBe(15);
    expect(await page.getByRole('checkbox', { name: 'Failed' }).isChecked()).toBe(true);
    await page.goBack();
    await expect.poll(async () => (await references()).length).toBe(50);
  });

  it('filters by business days, in the address too', async () => {
    await page.goto(`${appUrl}/transactions?q=${PREFIX}`);
    await expect.poll(async () => (await references()).length).toBe(50);
    await openFilters();
    await page.getByLabel('From', { exact: true }).fill('2026-11-02');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe('2026-11-02');
    await expect.poll(() => page.getByText('No transactions found.').isVisible()).toBe(true);
    await page.getByLabel('From', { exact: true }).fill('2026-11-01');
    await page.getByLabel('To', { exact: true }).fill('2026-11-01');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('to')).toBe('2026-11-01');
    await expect.poll(async () => (await references()).length).toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(async () => (await references()).length).toBe(60);
  });

  it('takes a date typed digit by digit once it is whole, keeping what was typed', async () => {
    // A browser in US English writes dates mm/dd/yyyy; its field calls the date whole at the
    // year's first digit (0002-11-02), which must not be applied.
    const desk = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'en-US',
    });
    const typing = await desk.newPage();
    try {
      await typing.goto(`${appUrl}/transactions?q=${PREFIX}`);
      const from = typing.getByLabel('From', { exact: true });
      await from.focus();
      for (const key of '11022026') await typing.keyboard.press(key);
      await expect.poll(() => new URL(typing.url()).searchParams.get('from')).toBe('2026-11-02');
      expect(await from.inputValue()).toBe('2026-11-02');
      expect(await typing.evaluate(() => document.activeElement?.getAttribute('name'))).toBe(
        'from',
      );
      // One step for Back: the date as a whole, not each digit.
      await typing.goBack();
      await expect.poll(() => new URL(typing.url()).searchParams.get('from')).toBeNull();
      // The field follows the address when the page draws it again, a moment after.
      await expect.poll(() => from.inputValue()).toBe('');
    } finally {
      await desk.close();
    }
  });

  it('refreshes itself while a payment on screen is pending, and stops once none is', async () => {
    await withApiDatabase(async (db) => {
      const at = new Date().toISOString();
      await db
        .insertInto('transactions')
        .values(storedPayment('live-001', at, { reference: 'LIVE-001', status: 'pending' }))
        .execute();
      // The page's clock, moved on rather than waited for: the polls are its timers.
      await page.clock.install();
      await page.goto(`${appUrl}/transactions?q=LIVE-`);
      const status = page.locator('td[data-label="Status"]');
      await expect.poll(() => status.textContent()).toBe('Pending');
      // The payer pays: the row changes under the open page.
      await db
        .updateTable('transactions')
        .set({ status: 'success', mpesa_receipt_number: 'LIV3E2E001', result_code: '0' })
        .where('id', '=', 'live-001')
        .execute();
      await polledIn(page, status.getByText('Success', { exact: true }));
      const asked: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/mpesa/transactions?')) asked.push(request.url());
      });
      // Past two of the 5 s polls there would have been, in the page's time, and until any request
      // they made has been answered.
      await page.clock.fastForward(POLL_INTERVAL_MS);
      await page.clock.fastForward(POLL_INTERVAL_MS);
      await networkQuiet(page);
      expect(asked).toEqual([]);
    });
  });

  it('finds a customer by a phone number written another way', async () => {
    await page.goto(`${appUrl}/transactions`);
    await page.getByRole('searchbox', { name: 'Search' }).fill('0711 999-001');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(async () => (await references()).sort())
      .toEqual([0, 10, 20, 30, 40, 50].map((i) => `${PREFIX}${String(i).padStart(3, '0')}`));
    expect(await page.locator('td[data-label="Phone Number"]').allTextContents()).toEqual(
      Array(6).fill(SHOP_PHONE),
    );
  });

  it('keeps room for what the selection adds up to, so no row moves under a finger when it comes', async () => {
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/mpesa/transactions/totals?*', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${appUrl}/transactions?q=${PREFIX}`);
      const first = page.getByRole('link', { name: 'View Details' }).first();
      await first.waitFor();
      const before = await first.boundingBox();
      release();
      await page.getByText('All that these filters select: 60 payments').waitFor();
      expect(await first.boundingBox()).toEqual(before);
      await page.unroute('**/api/mpesa/transactions/totals?*');
    }
  });

  it('exports what the filters select as a CSV file', async () => {
    await page.goto(`${appUrl}/transactions?q=${PREFIX}&status=failed`);
    await expect.poll(async () => (await references()).length).toBe(15);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^payments-failed-search-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = fs
      .readFileSync((await download.path())!, 'utf8')
      .split('\r\n')
      .filter(Boolean);
    expect(lines[0]).toMatch(/^\uFEFFPayment ID,"Created at \(.*\)",Reference,/);
    expect(lines).toHaveLength(16);
    expect(lines.slice(1).every((line) => line.includes(',failed,'))).toBe(true);
    expect(lines[1]).toMatch(/^hist-056,2026-11-01 11:56:00,HIST-056,/);
  });
});
