/**
 * The history's export as a merchant downloads it, at a desk (1280 px) and on a phone (360 px), in
 * English and in Kiswahili: a file named by its filter, that opens as CSV with its byte-order mark
 * and its header in words (in the screens' language), the times in the business time zone and the
 * phone number kept as text. The payments are written straight into the API's database, as the
 * history's own tests do.
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { withApiDatabase } from './api-database.ts';
import { workerBrowser } from './browser.ts';
import { DESKTOP, PHONE } from './page-checks.ts';
import { storedPayment } from '../apps/api/src/test/stored-payment.ts';
import { stack } from './stack.ts';

const { appUrl } = stack();
const PREFIX = 'EXPO-';
const DAY = '2026-11-10';

let browser: Browser;

beforeAll(async () => {
  browser = await workerBrowser();
  await withApiDatabase(async (db) => {
    for (const [n, status] of (['success', 'failed', 'success'] as const).entries()) {
      await db
        .insertInto('transactions')
        .values(
          // 09:0n in Nairobi, 06:0n UTC.
          storedPayment(`expo-${n}`, `${DAY}T06:0${n}:00.000Z`, {
            reference: `${PREFIX}${n}`,
            phone_number: `25471200088${n}`,
            amount: 1000 + n,
            status,
          }),
        )
        .execute();
    }
  });
});

const WORDS = {
  English: {
    locale: 'en-KE',
    link: 'Export CSV',
    prompt: 'Prompt',
    header:
      'Payment ID,"Created at (East Africa Time, UTC+03:00)",Reference,Description,' +
      'Phone number,Amount (KES),Status,M-PESA receipt,' +
      '"M-PESA transaction time (East Africa Time, UTC+03:00)",Result code,Result description,' +
      "Paid through,Payer's name,Payment link",
  },
  Kiswahili: {
    locale: 'sw-KE',
    link: 'Pakua CSV',
    prompt: 'Ombi',
    header:
      'Kitambulisho cha malipo,"Tarehe ya kuundwa (Saa za Afrika Mashariki, UTC+03:00)",Kumbukumbu,' +
      'Maelezo,Nambari ya simu,Kiasi (KES),Hali,Risiti ya M-PESA,' +
      '"Wakati wa muamala wa M-PESA (Saa za Afrika Mashariki, UTC+03:00)",Msimbo wa matokeo,' +
      'Maelezo ya matokeo,Njia ya malipo,Jina la mlipaji,Kiungo cha malipo',
  },
};

describe.each([
  ['English', DESKTOP],
  ['English', PHONE],
  ['Kiswahili', DESKTOP],
  ['Kiswahili', PHONE],
] as const)('the export in %s at %o', (language, viewport) => {
  const words = WORDS[language];
  it('downloads what the filters select, named by them, as CSV a spreadsheet reads', async () => {
    const context = await browser.newContext({
      viewport,
      locale: words.locale,
      acceptDownloads: true,
    });
    const page = await context.newPage();
    await page.goto(`${appUrl}/transactions?q=${PREFIX}&status=success&from=${DAY}&to=${DAY}`);
    await expect
      .poll(() => page.locator('td[data-label="Reference"]').allTextContents())
      .toEqual([`${PREFIX}2`, `${PREFIX}0`]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: words.link }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`payments-success-search-${DAY}-to-${DAY}.csv`);

    const bytes = fs.readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(words.header);
    expect(lines.slice(1)).toEqual([
      `expo-2,${DAY} 09:02:00,${PREFIX}2,Payment for services,254-712-000-882,1002,success,,,,,${words.prompt},,`,
      `expo-0,${DAY} 09:00:00,${PREFIX}0,Payment for services,254-712-000-880,1000,success,,,,,${words.prompt},,`,
    ]);
    await context.close();
  });
});
