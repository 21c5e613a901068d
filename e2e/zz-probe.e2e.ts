import { afterAll, beforeAll, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { PHONE, newContext } from './page-checks.ts';
import { operatorCommand, startOperatorsApp, type OperatorsApp } from './operators-app.ts';
import { stack } from './stack.ts';

const { simulatorUrl } = stack();
let browser: Browser;
let app: OperatorsApp;
beforeAll(async () => {
  app = await startOperatorsApp(simulatorUrl);
  await operatorCommand(app, ['add', 'Olive Owner', '--role', 'owner'], 'correct horse battery staple\n');
  browser = await launchBrowser();
}, 90_000);
afterAll(async () => { await browser?.close(); await app?.stop(); });

it('probe', async () => {
  for (let i = 0; i < 3; i++) {
    await fetch(`${app.url}/api/mpesa/stkpush`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ phoneNumber: `07123450${i}${i}`, amount: 149999 }) });
  }
  for (const locale of ['en-KE', 'sw-KE']) {
    const context = await newContext(browser, PHONE, locale);
    const page = await context.newPage();
    await page.goto(`${app.url}/sign-in`);
    await page.locator('input').first().fill('Olive Owner');
    await page.locator('input[type=password]').fill('correct horse battery staple');
    await page.locator('button[type=submit]').click();
    await page.waitForTimeout(1500);
    await page.goto(`${app.url}/transactions`);
    await page.locator('.transaction-table, .empty').first().waitFor();
    await page.waitForTimeout(1000);
    for (const [n, y] of [[1, 0], [2, 1100], [3, 2000]] as const) { await page.screenshot({ path: `/tmp/hist-${locale}-${n}.png`, fullPage: true, clip: { x: 0, y, width: 360, height: 1100 } }); }
    console.log(locale, JSON.stringify(await page.locator('.transaction-table tbody tr').first().boundingBox()));
    await context.close();
  }
});
