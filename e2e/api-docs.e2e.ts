/**
 * The API's reference (/api/docs, a page per route below it) and the simulator's (/_sim/docs), in
 * Chromium: rendered with their stylesheet under the app's own Content-Security-Policy (a refused
 * stylesheet or script would show as a console error), the routes and their error examples there
 * to read, the links between the pages and to the JSON working, nothing to scroll sideways at
 * 360 px, and axe's view of the first page and the longest route page of each.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fitsWidth, workerBrowser, phonePage } from './browser.ts';
import { DESKTOP, PHONE, axeViolations, newContext } from './page-checks.ts';
import { stack } from './stack.ts';

const { appUrl, simulatorUrl } = stack();

let browser: Browser;

beforeAll(async () => {
  browser = await workerBrowser();
});

/** The route page with the most to show (the longest HTML): where axe has the most to check. */
async function longestRoutePage(page: Page, first: string): Promise<string> {
  const html = await (await page.request.get(first)).text();
  const names = [...html.matchAll(/<li id="([a-z0-9-]+)">/g)].map(([, name]) => name);
  expect(names.length).toBeGreaterThan(10);
  let longest = { url: '', length: 0 };
  for (const name of names) {
    const url = `${first}/${name}`;
    const { length } = await (await page.request.get(url)).text();
    if (length > longest.length) longest = { url, length };
  }
  return longest.url;
}

/** axe on the first page and on the longest route page, at 360 and 1280 px. */
async function axeOnReference(first: string, title: string) {
  for (const size of [PHONE, DESKTOP]) {
    const context = await newContext(browser, size);
    const page = await context.newPage();
    await page.goto(first);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    expect(await axeViolations(page), `${first} at ${size.width} px`).toEqual([]);
    const route = await longestRoutePage(page, first);
    await page.goto(route);
    await page.getByRole('heading', { level: 2 }).first().waitFor();
    expect(await axeViolations(page), `${route} at ${size.width} px`).toEqual([]);
    await context.close();
  }
}

describe('the API reference', () => {
  it('lists every route, each on a page of its own with its error examples, styled, under the app’s policy', async () => {
    const { page, errors } = await phonePage(browser);
    const answer = await page.goto(`${appUrl}/api/docs`);
    expect(answer?.headers()['content-security-policy']).toContain("style-src 'self'");
    await page.getByRole('heading', { name: 'M-PESA Express API', level: 1 }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'POST /api/mpesa/stkpush' }).click();
    expect(new URL(page.url()).pathname).toBe('/api/docs/post-api-mpesa-stkpush');
    await expect(page.title()).resolves.toBe(
      'POST /api/mpesa/stkpush in M-PESA Express API: reference',
    );

    const push = page.getByRole('region', { name: 'POST /api/mpesa/stkpush' });
    await expect(push.getByRole('heading', { level: 2 }).isVisible()).resolves.toBe(true);
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

    // The index (folded into "Routes" on a phone) links to each route's page, marking this one;
    // the next route is a link away; the JSON is beside the first page.
    await page.locator('summary', { hasText: 'Routes' }).click();
    await expect(
      page
        .getByRole('navigation', { name: 'Routes' })
        .getByRole('link', { name: 'POST /api/mpesa/stkpush' })
        .getAttribute('aria-current'),
    ).resolves.toBe('page');
    await page.getByRole('link', { name: 'GET /api/mpesa/transactions/{id}/events' }).click();
    expect(new URL(page.url()).pathname).toBe('/api/docs/get-api-mpesa-transactions-id-events');
    await page
      .getByRole('navigation', { name: 'Previous and next route' })
      .getByRole('link')
      .last()
      .click();
    await page.getByRole('heading', { level: 2 }).first().waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/api\/docs\/[a-z0-9-]+$/);
    expect(new URL(page.url()).pathname).not.toBe('/api/docs/get-api-mpesa-transactions-id-events');
    const json = await page.request.get(
      new URL(
        (await page.getByRole('link', { name: 'openapi.json' }).getAttribute('href')) ?? '',
        page.url(),
      ).href,
    );
    expect((await json.json()).openapi).toBe('3.1.0');

    // An address from when every route was on one page still finds the route's line.
    await page.goto(`${appUrl}/api/docs#post-api-mpesa-transactions-id-refund`);
    await expect(
      page.locator('#post-api-mpesa-transactions-id-refund').getByRole('link').textContent(),
    ).resolves.toBe('POST /api/mpesa/transactions/{id}/refund');

    // The search is a form the server answers: no script.
    await page.getByRole('searchbox', { name: 'Search the routes' }).fill('refund');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('status').waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('refund');
    const found = page.getByRole('main').getByRole('link');
    await expect(found.filter({ hasText: '/refund' }).count()).resolves.toBeGreaterThan(0);
    await expect(found.filter({ hasText: '/api/mpesa/stkpush' }).count()).resolves.toBe(0);

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

  it('passes axe at 360 and 1280 px, on the first page and the longest route page', async () => {
    await axeOnReference(`${appUrl}/api/docs`, 'M-PESA Express API');
  });
});

describe('the simulator’s reference', () => {
  it('shows Daraja’s routes and the control API, with no errors, and passes axe', async () => {
    const { page, errors } = await phonePage(browser);
    await page.goto(`${simulatorUrl}/_sim/docs`);
    await page.getByRole('heading', { name: 'Daraja simulator', level: 1 }).waitFor();
    await expect(
      page.getByRole('main').getByRole('link', { name: 'POST /_sim/prompts/{id}/pin' }).isVisible(),
    ).resolves.toBe(true);
    await page
      .getByRole('main')
      .getByRole('link', { name: 'POST /mpesa/stkpush/v1/processrequest' })
      .click();
    const push = page.getByRole('region', { name: 'POST /mpesa/stkpush/v1/processrequest' });
    await expect(
      push.getByRole('figure', { name: 'A prompt is already open on this phone' }).isVisible(),
    ).resolves.toBe(true);
    expect(await fitsWidth(page)).toBe(true);
    await page.context().close();
    expect(errors).toEqual([]);

    await axeOnReference(`${simulatorUrl}/_sim/docs`, 'Daraja simulator');
  });
});
