/**
 * The web app hosted on another origin than the API, as the original demo's client was (docs/product.md §7): built with
 * VITE_API_BASE_URL pointing at the API, served by a plain static server on a second origin (the
 * API lists it in CORS_ORIGINS, see global-setup.ts), and paid through end to end in Chromium. The
 * same build served from an origin not on the list is refused by the browser, and no payment
 * reaches the API.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, run } from '../scripts/lib.ts';
import { workerBrowser, phonePage } from './browser.ts';
import { stack } from './stack.ts';
import { callbacksNow, polledIn } from './time.ts';

const { appUrl, simulatorUrl, otherOriginUrl } = stack();

const SENT = 'Payment initiated! Check your phone to complete the transaction.';
const FAILED = 'Failed to initiate payment. Please try again.';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** A static host for the built files, as any would serve a single-page app: unknown paths get index.html. */
async function serveStatic(root: string, port: number): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    let file = path.join(root, path.normalize(pathname));
    if (!file.startsWith(root) || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
      file = path.join(root, 'index.html');
    }
    response.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    });
    response.end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

let buildDir: string;
let servers: http.Server[] = [];
let strangerUrl: string;
let browser: Browser;
let page: Page;
let errors: string[];
/** Console errors a test expects. */
let expectedErrors: RegExp[];

beforeAll(async () => {
  // The production build, as a host would get it, talking to the e2e API on its own origin.
  buildDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-web-other-origin-'));
  const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
  const code = await run(
    process.execPath,
    [vite, 'build', '--outDir', buildDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: path.join(ROOT, 'apps/web'),
      env: { ...process.env, NODE_ENV: 'production', VITE_API_BASE_URL: `${appUrl}/api` },
    },
  );
  expect(code).toBe(0);
  servers = [await serveStatic(buildDir, Number(new URL(otherOriginUrl).port))];
  const stranger = await serveStatic(buildDir, 0);
  servers.push(stranger);
  strangerUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;
  browser = await workerBrowser();
}, 180_000);
afterAll(async () => {
  await Promise.all(
    servers.map((server) => new Promise((resolve) => server.close(() => resolve(null)))),
  );
  if (buildDir) fs.rmSync(buildDir, { recursive: true, force: true });
});
beforeEach(async () => {
  ({ page, errors } = await phonePage(browser));
  expectedErrors = [];
  return async () => {
    await page.context().close();
    expect(
      errors.filter((error) => !expectedErrors.some((pattern) => pattern.test(error))),
    ).toEqual([]);
  };
});

let numbers = 0;

/** A phone number of the test's own (not another file's, which its cooldown may still hold). */
function ownNumber(): string {
  return `2547${String(Date.now() + numbers++).slice(-8)}`;
}

/** A number the simulator pays, SIM_CALLBACK_DELAY_MS after the push. */
async function payingNumber(): Promise<string> {
  const phone = ownNumber();
  const told = await fetch(`${simulatorUrl}/_sim/numbers/${phone}/next`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ outcome: '0' }),
  });
  expect(told.status).toBe(200);
  return phone;
}

async function fillAndPay(phone: string, amount: string, reference: string) {
  await page.getByLabel('Phone Number').fill(phone);
  await page.getByLabel('Amount (KES)').fill(amount);
  await page.getByLabel('Reference').fill(reference);
  await page.getByRole('button', { name: 'Pay with M-PESA' }).click();
}

async function detailValue(label: string): Promise<string> {
  return (
    (await page
      .locator('.detail-row', { has: page.locator('dt', { hasText: label }) })
      .locator('dd')
      .textContent()) ?? ''
  );
}

/** The API's payments whose reference starts with `reference`, asked directly. */
async function paymentsWithReference(reference: string): Promise<Array<{ _id: string }>> {
  const answer = await fetch(`${appUrl}/api/mpesa/transactions?q=${encodeURIComponent(reference)}`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: Array<{ _id: string }> }).data;
}

describe('the web app on another origin than the API', () => {
  it('pays through the API across origins: form, success message, detail page, history', async () => {
    expect(new URL(otherOriginUrl).origin).not.toBe(new URL(appUrl).origin);
    const reference = `E2E cross-origin ${Date.now()}`;
    const phone = await payingNumber();

    // The page's clock, moved on to its next poll once the callback is in (time.ts).
    await page.clock.install();
    await page.goto(otherOriginUrl);
    await page.getByRole('heading', { name: 'M-PESA Payment', exact: true }).waitFor();
    const [answer] = await Promise.all([
      page.waitForResponse(
        (response) =>
          response.url() === `${appUrl}/api/mpesa/stkpush` &&
          response.request().method() === 'POST',
      ),
      fillAndPay(phone, '130', reference),
    ]);

    // The payment went to the API's origin, from the page's, and the browser let the page read
    // the answer: CORS headers; the API's Cross-Origin-Resource-Policy: same-origin does not
    // apply to CORS requests (it guards no-cors loads, such as an <img> or a <script>).
    expect(await answer.request().headerValue('origin')).toBe(otherOriginUrl);
    expect(await answer.request().headerValue('idempotency-key')).toBeTruthy();
    expect(answer.status()).toBe(200);
    expect(await answer.headerValue('access-control-allow-origin')).toBe(otherOriginUrl);
    expect(await answer.headerValue('cross-origin-resource-policy')).toBe('same-origin');
    const { transactionId } = (await answer.json()) as { transactionId: string };

    await page.getByText(SENT).waitFor();
    await page.waitForURL(`${otherOriginUrl}/transactions/${transactionId}`, { timeout: 10_000 });
    await page.getByRole('heading', { name: 'Transaction Details' }).waitFor();
    await page.getByText('Please complete the payment on your phone.').waitFor();

    // The simulator calls back (5 s after the push, now); the page asks the API again (every 5 s).
    await callbacksNow(simulatorUrl);
    await polledIn(page, page.locator('.status-badge', { hasText: 'Success' }));
    expect(await detailValue('Reference')).toBe(reference);
    expect(await detailValue('Amount')).toBe('130 KES');
    expect(await detailValue('M-PESA Receipt')).toMatch(/^[A-Z0-9]{10}$/);

    await page.getByRole('link', { name: 'Back to Transactions' }).click();
    await page.getByRole('heading', { name: 'Transaction History' }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(reference) });
    await row.waitFor();
    expect(await row.textContent()).toContain('130 KES');
    expect(await row.locator('.status-badge').textContent()).toBe('Success');

    expect((await paymentsWithReference(reference)).map((payment) => payment._id)).toEqual([
      transactionId,
    ]);
  });

  it('is refused by the browser on an origin not in CORS_ORIGINS: the failure message, and no payment', async () => {
    // The browser's own report of each refused request.
    expectedErrors = [/blocked by CORS policy/, /net::ERR_FAILED/];
    const reference = `E2E stranger ${Date.now()}`;
    const phone = ownNumber();
    let pushesSent = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/mpesa/stkpush')) pushesSent++;
    });

    await page.goto(strangerUrl);
    await page.getByRole('heading', { name: 'M-PESA Payment', exact: true }).waitFor();
    await fillAndPay(phone, '140', reference);
    const alert = page.getByRole('alert').filter({ hasText: FAILED });
    await alert.waitFor();
    expect(await page.getByText(SENT).count()).toBe(0);
    expect(page.url()).toBe(`${strangerUrl}/`);
    expect(pushesSent).toBeGreaterThan(0);
    expect(errors.some((error) => /blocked by CORS policy/.test(error))).toBe(true);

    // The API refused the preflight, so the payment itself was never sent.
    const preflight = await fetch(`${appUrl}/api/mpesa/stkpush`, {
      method: 'OPTIONS',
      headers: {
        Origin: strangerUrl,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,idempotency-key',
      },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(await preflight.json()).toMatchObject({ success: false, code: 'ORIGIN_NOT_ALLOWED' });
    expect(await paymentsWithReference(reference)).toEqual([]);
    const { prompts } = (await (await fetch(`${simulatorUrl}/_sim/prompts`)).json()) as {
      prompts: Array<{ phoneNumber: string }>;
    };
    expect(prompts.filter((prompt) => prompt.phoneNumber === phone)).toEqual([]);
  });
});
