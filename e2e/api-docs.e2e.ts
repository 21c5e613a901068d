/**
 * The API's reference page (/api/docs) and the simulator's (/_sim/docs), in Chromium: rendered
 * with their stylesheet under the app's own Content-Security-Policy (a refused stylesheet or
 * script would show as a console error), the routes and their error examples there to read, the
 * links to the JSON working, nothing to scroll sideways at 360 px, and axe's view of both pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { fitsWidth, launchBrowser, phonePage } from './browser.ts';
import { DESKTOP, PHONE, axeViolations, newContext } from './page-checks.ts';
import { stack } from './stack.ts';

const { appUrl, simulatorUrl } = stack();

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the API reference page', () => {
  it('shows the push route with its error examples, styled, under the app’s policy', async () => {
    const { page, errors } = await phonePage(browser);
    const answer = await page.goto(`${appUrl}/api/docs`);
    expect(answer?.headers()['content-security-policy']).toContain("style-src 'self'");
    await page.getByRole('heading', { name: 'M-PESA Express API', level: 1 }).waitFor();

    const push = page.getByRole('region', { name: 'POST /api/mpesa/stkpush' });
    await expect(push.getByRole('heading', { level: 3 }).isVisible()).resolves.toBe(true);
    const reused = push.getByRole('figure', {
      name: 'The Idempotency-Key was used before for a different body',
    });
    await expect(reused.isVisible()).resolves.toBe(true);
    await expect(reused.textContent()).resolves.toContain('"code": "IDEMPOTENCY_KEY_REUSED"');
    await expect(
      push.getByRole('heading', { name: '422 Unprocessable Entity' }).isVisible(),
    ).resolves.toBe(true);

    // The stylesheet was let in: the method's badge is drawn in white on green.
    const badge = push.locator('.method-post').first();
    await expect(badge.evaluate((element) => getComputedStyle(element).color)).resolves.toBe(
      'rgb(255, 255, 255)',
    );
    expect(await fitsWidth(page)).toBe(true);

    // Each route has a curl example, from the body example the tests check.
    await expect(push.locator('code.curl').textContent()).resolves.toContain("curl -X POST 'http");

    // The contents (folded into "Routes" on a phone) link to each route, and the JSON beside the page.
    await page.locator('summary', { hasText: 'Routes' }).click();
    await page.getByRole('link', { name: 'GET /api/mpesa/transactions/{id}/events' }).click();
    expect(new URL(page.url()).hash).toBe('#get-api-mpesa-transactions-id-events');
    const json = await page.request.get(
      new URL(
        (await page.getByRole('link', { name: 'openapi.json' }).getAttribute('href')) ?? '',
        `${appUrl}/api/docs`,
      ).href,
    );
    expect((await json.json()).openapi).toBe('3.1.0');

    // The search is a form the server answers: no script.
    await page.getByRole('searchbox', { name: 'Search the routes' }).fill('refund');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('status').waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('refund');
    await expect(
      page.getByRole('region', { name: 'POST /api/mpesa/stkpush' }).count(),
    ).resolves.toBe(0);

    await page.context().close();
    expect(errors).toEqual([]);
  });

  it('keeps the index in view beside the routes on a wide screen', async () => {
    const context = await newContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${appUrl}/api/docs`);
    await page.getByRole('heading', { name: 'M-PESA Express API', level: 1 }).waitFor();
    await page.mouse.wheel(0, 20_000);
    await expect(
      page.getByRole('searchbox', { name: 'Search the routes' }).isVisible(),
    ).resolves.toBe(true);
    const box = await page.getByRole('navigation', { name: 'Routes' }).boundingBox();
    expect(box?.y).toBeGreaterThanOrEqual(-1);
    expect(box?.y).toBeLessThan(10);
    await context.close();
  });

  it('passes axe at 360 and 1280 px', async () => {
    for (const size of [PHONE, DESKTOP]) {
      const context = await newContext(browser, size);
      const page = await context.newPage();
      await page.goto(`${appUrl}/api/docs`);
      await page.getByRole('heading', { name: 'M-PESA Express API', level: 1 }).waitFor();
      expect(await axeViolations(page), `${size.width} px`).toEqual([]);
      await context.close();
    }
  });
});

describe('the simulator’s reference page', () => {
  it('shows Daraja’s routes and the control API, with no errors, and passes axe', async () => {
    const { page, errors } = await phonePage(browser);
    await page.goto(`${simulatorUrl}/_sim/docs`);
    await page.getByRole('heading', { name: 'Daraja simulator', level: 1 }).waitFor();
    const push = page.getByRole('region', { name: 'POST /mpesa/stkpush/v1/processrequest' });
    await expect(
      push.getByRole('figure', { name: 'A prompt is already open on this phone' }).isVisible(),
    ).resolves.toBe(true);
    await expect(
      page.getByRole('region', { name: 'POST /_sim/prompts/{id}/pin' }).isVisible(),
    ).resolves.toBe(true);
    expect(await fitsWidth(page)).toBe(true);
    await page.context().close();
    expect(errors).toEqual([]);

    const context = await newContext(browser, PHONE);
    const checked = await context.newPage();
    await checked.goto(`${simulatorUrl}/_sim/docs`);
    await checked.getByRole('heading', { name: 'Daraja simulator', level: 1 }).waitFor();
    expect(await axeViolations(checked)).toEqual([]);
    await context.close();
  });
});
