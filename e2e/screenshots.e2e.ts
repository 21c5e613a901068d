/// <reference lib="dom" />
/**
 * The screenshots in docs/screenshots (two of them on the README): the payment form, the history
 * and a successful payment's details, at 360 px and 1280 px, showing payments this file makes
 * through the API and answers on the simulator's virtual phone.
 *
 * With UPDATE_SCREENSHOTS=1 they are written to docs/screenshots, to be committed; run this file
 * alone, so that the history holds only its payments:
 * `UPDATE_SCREENSHOTS=1 npm run test:e2e -- screenshots`. Otherwise they go to a temporary folder:
 * every run checks that each screen can still be taken at both widths, without comparing pixels
 * (the history then holds every other test's payments too) and without touching the tree.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { InitiatePaymentResponse, TransactionListResponse } from '@mpesa/shared/contract';
import { ROOT } from '../scripts/lib.ts';
import { workerBrowser } from './browser.ts';
import { DESKTOP, PHONE } from './page-checks.ts';
import { stack } from './stack.ts';

const { appUrl, simulatorUrl } = stack();
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const folder = UPDATE
  ? path.join(ROOT, 'docs/screenshots')
  : fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-screenshots-'));
fs.mkdirSync(folder, { recursive: true });

/** How the payer answers the prompt on the virtual phone; none leaves it waiting. */
type Answer = 'pin' | 'wrong-pin' | 'cancel' | 'none';

/** A shop's afternoon, oldest first; the history shows it newest first. */
const PAYMENTS: Array<{ phone: string; amount: number; reference: string; answer: Answer }> = [
  { phone: '0722104215', amount: 2450, reference: 'INV-2026-0418', answer: 'pin' },
  { phone: '0733581902', amount: 120, reference: 'Table 7', answer: 'cancel' },
  { phone: '0710662437', amount: 860, reference: 'Order 5521', answer: 'wrong-pin' },
  { phone: '0745218760', amount: 3200, reference: 'INV-2026-0419', answer: 'pin' },
  { phone: '0796430115', amount: 450, reference: 'Order 5522', answer: 'pin' },
  { phone: '0701352884', amount: 1500, reference: 'Order 5523', answer: 'none' },
];
/** The payment whose details are shown: a success. */
const SHOWN = 'INV-2026-0419';

const ids = new Map<string, string>();
let waiting: string | undefined;
let browser: Browser;

async function post(url: string, body?: unknown): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return response;
}

/** Pays through the API, answers on the virtual phone, and waits for the result to be saved. */
async function pay({ phone, amount, reference, answer }: (typeof PAYMENTS)[number]) {
  const response = await post(`${appUrl}/api/mpesa/stkpush`, {
    phoneNumber: phone,
    amount,
    reference,
  });
  const { transactionId, checkoutRequestId } = (await response.json()) as InitiatePaymentResponse;
  ids.set(reference, transactionId);
  const prompt = `${simulatorUrl}/_sim/prompts/${checkoutRequestId}`;
  if (answer === 'none') {
    waiting = prompt;
    return;
  }
  if (answer === 'cancel') await post(`${prompt}/cancel`);
  else await post(`${prompt}/pin`, { pin: answer === 'pin' ? '1234' : '0000' });
  // The simulator calls back at once; the API has saved the result when it reads it back.
  for (let tries = 0; ; tries++) {
    const saved = (await (
      await fetch(`${appUrl}/api/mpesa/transactions/${transactionId}`)
    ).json()) as { data: { status: string } };
    if (saved.data.status !== 'pending') return;
    if (tries > 100) throw new Error(`${reference} is still pending after its prompt ended`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  if (UPDATE) {
    const history = (await (
      await fetch(`${appUrl}/api/mpesa/transactions`)
    ).json()) as TransactionListResponse;
    if (history.data.length > 0) {
      throw new Error(
        'UPDATE_SCREENSHOTS=1: the history already holds other tests’ payments, which the ' +
          'screenshots would show. Run this file alone: UPDATE_SCREENSHOTS=1 npm run test:e2e -- screenshots',
      );
    }
  }
  for (const payment of PAYMENTS) await pay(payment);
  browser = await workerBrowser();
});
afterAll(async () => {
  // The payment left waiting ends, so that no prompt outlives this file.
  if (waiting) await post(`${waiting}/timeout`);
  if (!UPDATE) fs.rmSync(folder, { recursive: true, force: true });
});

/** Each screen: its file name, its address, and what shows that everything on it has loaded. */
const SCREENS = [
  { name: 'form', path: () => '/', loaded: ['a:has-text("Open the Daraja simulator")'] },
  {
    name: 'history',
    path: () => '/transactions',
    loaded: ['section[aria-label="At a glance"]', 'a:has-text("View Details")'],
  },
  {
    name: 'detail',
    path: () => `/transactions/${ids.get(SHOWN)}`,
    loaded: ['.status-badge:has-text("Success")', '.timeline-list'],
  },
];

/** A PNG's width and height, from its header. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe.each([
  ['360', PHONE],
  ['1280', DESKTOP],
])('the screenshots at %s px', (width, viewport) => {
  for (const screen of SCREENS) {
    it(screen.name, async () => {
      const context = await browser.newContext({
        viewport,
        deviceScaleFactor: 1,
        locale: 'en-KE',
        timezoneId: 'Africa/Nairobi',
        colorScheme: 'light',
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(appUrl + screen.path());
        for (const selector of screen.loaded) await page.locator(selector).first().waitFor();
        if (screen.name === 'form') {
          await page.getByLabel('Phone Number').fill('0712345678');
          await page.getByLabel('Amount (KES)').fill('1500');
          await page.getByLabel('Reference').fill('Order 5524');
          await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        }
        await page.waitForLoadState('networkidle');
        await page.evaluate(() => document.fonts.ready);

        const file = path.join(folder, `${screen.name}-${width}.png`);
        await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
        const size = pngSize(file);
        expect(size.width).toBe(viewport.width);
        expect(size.height).toBeGreaterThanOrEqual(viewport.height);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
