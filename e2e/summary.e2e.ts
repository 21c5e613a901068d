/**
 * The history's figures at a glance against payments written into the API's database: each of
 * the last 13 business days gets a known mix, so the chart's table must show exactly it, and the
 * last 7 days must be today's figures (which other tests add to) plus the six days before.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { withApiDatabase } from './api-database.ts';
import { businessDayOf, previousDay } from '../apps/api/src/lib/business-day.ts';
import { fitsWidth, workerBrowser, phonePage } from './browser.ts';
import { storedPayment } from '../apps/api/src/test/stored-payment.ts';
import { stack } from './stack.ts';

const { appUrl } = stack();
const ZONE = 'Africa/Nairobi';

/** The seeded days, 1 to 13 business days ago, and what each holds. */
const today = businessDayOf(new Date(), ZONE);
const days: string[] = [];
for (let day = previousDay(today); days.length < 13; day = previousDay(day)) days.push(day);
const mix = (ago: number) =>
  [
    { status: 'success', amount: 1000 + ago },
    { status: 'success', amount: 500 },
    { status: 'failed', amount: 300 },
    { status: 'cancelled', amount: 200 },
    { status: 'timeout', amount: 50 },
  ] as const;

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await workerBrowser();
  await withApiDatabase(async (db) => {
    for (const [index, day] of days.entries()) {
      const ago = index + 1;
      for (const [n, { status, amount }] of mix(ago).entries()) {
        // Noon in Nairobi, one minute apart.
        const at = new Date(Date.parse(`${day}T09:0${n}:00.000Z`)).toISOString();
        await db
          .insertInto('transactions')
          .values(
            storedPayment(`summary-${day}-${n}`, at, {
              reference: `SUM-${day}-${n}`,
              phone_number: '254712888000',
              amount,
              status,
              result_code: status === 'success' ? '0' : '1',
            }),
          )
          .execute();
      }
    }
  });
});
beforeEach(async () => {
  ({ page } = await phonePage(browser));
  return () => page.context().close();
});

/** A period's figures as shown: collected, payments, and the success rate's text. */
async function period(title: string) {
  const box = page
    .locator('.summary-period')
    .filter({ has: page.getByRole('heading', { name: title }) });
  const collected = await box.locator('.summary-collected').textContent();
  const detail = (await box.locator('.summary-detail').textContent())!;
  return {
    collected: Number(/^([\d,]+) KES$/.exec(collected!)![1]!.replaceAll(',', '')),
    count: Number(/^(\d+) payments?[ ,]/.exec(detail)![1]),
    detail,
  };
}

describe('the figures at a glance', () => {
  it('show each seeded day in the chart table, and the last 7 days as today plus six days', async () => {
    await page.goto(`${appUrl}/transactions`);
    const glance = page.getByRole('region', { name: 'At a glance' });
    await expect.poll(() => glance.isVisible()).toBe(true);

    const table = glance.getByRole('table', { name: /Amounts in KES by day and status/ });
    for (const [index, day] of days.entries()) {
      const cells = await table
        .getByRole('row', { name: new RegExp(`^${day}`) })
        .getByRole('cell')
        .allTextContents();
      // Success, Refunded, Pending, Failed, Cancelled, Timeout, Other.
      expect(cells, day).toEqual([
        (1500 + index + 1).toLocaleString('en-KE'),
        '0',
        '0',
        '300',
        '200',
        '50',
        '0',
      ]);
    }

    const todays = await period('Today');
    const week = await period('Last 7 days');
    const seededSuccess = [1, 2, 3, 4, 5, 6].reduce((sum, ago) => sum + 1500 + ago, 0);
    expect(week.collected).toBe(todays.collected + seededSuccess);
    expect(week.count).toBe(todays.count + 6 * mix(0).length);
    // Other tests' payments may be waiting today: counted apart, and the rate of the others.
    expect(todays.detail).toMatch(
      /^\d+ payments?((, | \(\d+ still pending\), )(\d+%|–)( of the others)? successful|, (all )?still pending)$/,
    );
    expect(await fitsWidth(page)).toBe(true);
  });
});
