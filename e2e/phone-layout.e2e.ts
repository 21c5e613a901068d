/**
 * The screens on a phone and on a desktop, at 360 px and at 1280 px: the form says whom
 * the payer pays and that the prompt expires; validation messages belong to their fields, which
 * get focus; every focus ring stands out 3:1 from what it is drawn on; nothing scrolls sideways
 * with text at 200 %; the history is compact on a phone, one line a payment on a desktop, and a
 * whole row opens its payment; axe finds nothing on any of it. The history is written straight
 * into the API's database.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { withApiDatabase } from './api-database.ts';
import { fitsWidth, workerBrowser } from './browser.ts';
import {
  DESKTOP,
  PHONE,
  axeViolations,
  focusRingsByTab,
  newContext,
  setTextSize,
  sticksOut,
  wrappedCells,
} from './page-checks.ts';
import { storedPayment } from '../apps/api/src/test/stored-payment.ts';
import { stack } from './stack.ts';

const { appUrl } = stack();
const PREFIX = 'ROWS-';
const LONG_REFERENCE = `${PREFIX}${'Quarterly service charge for flat 4B '.repeat(3)}`.slice(
  0,
  100,
);
const FAILED_ID = 'rows-failed-2001';
const STATUSES = ['success', 'failed', 'cancelled', 'timeout', 'pending', 'unknown'] as const;

let browser: Browser;

beforeAll(async () => {
  browser = await workerBrowser();
  await withApiDatabase(async (db) => {
    const now = Date.now();
    for (let i = 0; i < 8; i++) {
      const status = STATUSES[i % STATUSES.length]!;
      await db
        .insertInto('transactions')
        .values(
          storedPayment(`rows-${i}`, new Date(now - (i + 2) * 60_000).toISOString(), {
            reference: i === 0 ? LONG_REFERENCE : `${PREFIX}INV-2026-${String(i).padStart(4, '0')}`,
            phone_number: `2547120${String(i).padStart(5, '0')}`,
            amount: i === 1 ? 250_000 : 100 + i,
            status,
            result_code: status === 'success' ? '0' : status === 'pending' ? null : '1',
          }),
        )
        .execute();
    }
    await db
      .insertInto('transactions')
      .values(
        storedPayment(FAILED_ID, new Date(now - 60_000).toISOString(), {
          reference: `${PREFIX}WRONG-PIN`,
          phone_number: '254712000777',
          amount: 75,
          status: 'failed',
          result_code: '2001',
          response_description: 'The initiator information is invalid.',
        }),
      )
      .execute();
  });
});

/** The screens, each with what shows it has loaded. */
const SCREENS = [
  { path: '/', loaded: 'button:has-text("Pay with M-PESA")' },
  { path: `/transactions?q=${PREFIX}`, loaded: 'a:has-text("View Details")' },
  { path: `/transactions/${FAILED_ID}`, loaded: 'a:has-text("Try again")' },
  { path: '/no/such/page', loaded: 'h2:has-text("Page not found")' },
];

/** The ids of the form's inputs whose placeholder does not fit in the input. */
function cutPlaceholders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const measure = document.createElement('canvas').getContext('2d')!;
    return Array.from(document.querySelectorAll<HTMLInputElement>('.form-group input'))
      .filter((input) => {
        const box = getComputedStyle(input);
        const placeholder = getComputedStyle(input, '::placeholder');
        measure.font = `${placeholder.fontSize} ${placeholder.fontFamily}`;
        const room = input.clientWidth - parseFloat(box.paddingLeft) - parseFloat(box.paddingRight);
        return measure.measureText(input.placeholder).width > room;
      })
      .map((input) => input.id);
  });
}

describe.each([
  ['at 360 px', PHONE],
  ['at 1280 px', DESKTOP],
])('the screens %s', (_, viewport) => {
  let context: BrowserContext;
  let page: Page;

  beforeEach(async () => {
    context = await newContext(browser, viewport);
    page = await context.newPage();
    return () => context.close();
  });

  async function open(path: string, loaded: string) {
    await page.goto(appUrl + path);
    await page.locator(loaded).first().waitFor();
  }

  it('the form says whom the payer pays and that the prompt expires in about a minute', async () => {
    await open('/', 'button:has-text("Pay with M-PESA")');
    expect(await page.locator('.payment-intro').textContent()).toBe(
      'You are paying Sandbox Test Merchant. M-PESA will send a prompt to the phone number below: enter your M-PESA PIN there within about a minute, before the prompt expires.',
    );
  });

  it('shows every field’s placeholder whole, and says which fields are optional', async () => {
    await page.goto(appUrl);
    await page.getByLabel('Phone Number').waitFor();
    expect(await cutPlaceholders(page)).toEqual([]);
    expect(await page.getByLabel('Reference').getAttribute('aria-describedby')).toBe(
      'reference-hint',
    );
    expect(await page.locator('#reference-hint').textContent()).toBe(
      'Optional. The M-PESA prompt shows its first 12 characters.',
    );
    expect(await page.locator('#description-hint').textContent()).toBe('Optional.');
  });

  it('in Kiswahili too: every placeholder whole, the optional fields said', async () => {
    const swahili = await newContext(browser, viewport, 'sw-KE');
    const tab = await swahili.newPage();
    await tab.goto(appUrl);
    await tab.getByLabel('Nambari ya Simu').waitFor();
    expect(await cutPlaceholders(tab)).toEqual([]);
    expect(await tab.locator('#reference-hint').textContent()).toBe(
      'Si lazima. Ombi la M-PESA linaonyesha herufi 12 za kwanza.',
    );
    expect(await tab.locator('#description-hint').textContent()).toBe('Si lazima.');
    expect(await fitsWidth(tab)).toBe(true);
    await swahili.close();
  });

  it('ties each validation message to its field, moves focus to it, and passes axe', async () => {
    await open('/', 'button:has-text("Pay with M-PESA")');
    const phone = page.getByLabel('Phone Number');
    const amount = page.getByLabel('Amount (KES)');
    const pay = page.getByRole('button', { name: 'Pay with M-PESA' });
    /** The field's description as its aria-describedby names it, and whether it has focus. */
    const state = (field: typeof phone) =>
      field.evaluate((input) => ({
        invalid: input.getAttribute('aria-invalid'),
        description: (input.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .filter(Boolean)
          .map((id) => document.getElementById(id)?.textContent)
          .join(' | '),
        focused: document.activeElement === input,
      }));

    // Both in trouble: each says so, and the first has the focus.
    await phone.fill('12345');
    await pay.click();
    await page.getByRole('alert').first().waitFor();
    expect(await state(amount)).toEqual({
      invalid: 'true',
      description: 'Amount must be at least 1 KES',
      focused: false,
    });
    expect(await state(phone)).toEqual({
      invalid: 'true',
      description:
        'Please enter a valid Kenyan phone number | Format: 07XXXXXXXX or +2547XXXXXXXX | 01… numbers too; spaces are fine.',
      focused: true,
    });
    expect(await axeViolations(page)).toEqual([]);

    await phone.fill('0712345678');
    await pay.click();
    await page.getByRole('alert').filter({ hasText: 'Amount must be at least 1 KES' }).waitFor();
    expect(await state(amount)).toEqual({
      invalid: 'true',
      description: 'Amount must be at least 1 KES',
      focused: true,
    });
    expect(await state(phone)).toEqual({
      invalid: 'false',
      description: 'Format: 07XXXXXXXX or +2547XXXXXXXX | 01… numbers too; spaces are fine.',
      focused: false,
    });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('every focus ring stands out 3:1 or more from what it is drawn on, on every screen', async () => {
    for (const { path, loaded } of SCREENS) {
      await open(path, loaded);
      const rings = await focusRingsByTab(page);
      // The skip link, the header's links, and the screen's own controls.
      expect(rings.length, path).toBeGreaterThan(4);
      const weak = rings.filter((ring) => ring.width < 2 || ring.contrast < 3);
      expect(weak, path).toEqual([]);
    }
  });

  it('nothing scrolls sideways with text at 200 %, and axe finds nothing', async () => {
    await setTextSize(page, 200);
    for (const { path, loaded } of SCREENS) {
      await open(path, loaded);
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe(
        '32px',
      );
      expect(await sticksOut(page), path).toEqual([]);
      expect(await axeViolations(page), path).toEqual([]);
    }
    // The form with both its messages showing, too.
    await open('/', 'button:has-text("Pay with M-PESA")');
    await page.getByRole('button', { name: 'Pay with M-PESA' }).click();
    await page.getByRole('alert').filter({ hasText: 'Amount must be at least 1 KES' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(2);
    expect(await sticksOut(page)).toEqual([]);
    // The first message, by its focused field, is not under the Pay button (sticky only with
    // text of a usual size).
    const message = (await page.locator('#phoneNumber-error').boundingBox())!;
    const pay = (await page.getByRole('button', { name: 'Pay with M-PESA' }).boundingBox())!;
    expect(message.y + message.height <= pay.y || message.y >= pay.y + pay.height).toBe(true);
  });

  it('the history: a whole row opens its payment, and rows fit the screen', async () => {
    await open(`/transactions?q=${PREFIX}`, 'a:has-text("View Details")');
    const rows = page.locator('.transaction-table tbody tr');
    expect(await rows.count()).toBe(9);
    if (viewport === PHONE) {
      // Compact: at least four payments on a 740 px screen.
      const boxes = await rows.evaluateAll((trs) =>
        trs.map((tr) => {
          const box = tr.getBoundingClientRect();
          return { top: box.top, bottom: box.bottom, height: box.height };
        }),
      );
      for (const box of boxes) expect(box.height).toBeLessThanOrEqual(PHONE.height / 4);
      expect(boxes[3]!.bottom - boxes[0]!.top).toBeLessThanOrEqual(PHONE.height);
    } else {
      // One line a payment: no cell wraps, a long reference included (it is cut short).
      expect(await wrappedCells(page)).toEqual([]);
      expect(await page.getByText(LONG_REFERENCE).isVisible()).toBe(true);
    }
    // A tap on the amount, away from the link, opens the payment.
    const amount = page
      .getByRole('row', { name: /ROWS-WRONG-PIN/ })
      .locator('td[data-label="Amount"]');
    await amount.scrollIntoViewIfNeeded();
    const box = (await amount.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForURL(`${appUrl}/transactions/${FAILED_ID}`);
    await page.getByRole('link', { name: 'Try again' }).waitFor();
  });
});
