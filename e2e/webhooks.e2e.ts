/**
 * Webhooks end to end (docs/webhooks.md, docs/product.md §12): an owner adds an endpoint pointing
 * at the simulator's development receiver, sees its secret once, sends a test event, sees it
 * delivered with HTTP 200, resends it and sees it sent again; the receiver holds the event with a
 * signature this test checks on its own (HMAC-SHA256 over "<t>.<body>", with node:crypto) with
 * the secret read on the screen. At 360 and 1280 px, with axe.
 *
 * This file starts an API of its own (HISTORY_ACCESS=operators) whose deliverer looks for due
 * deliveries every 100 ms, so that a test event goes at once.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { fitsWidth, workerBrowser, phonePage } from './browser.ts';
import { DESKTOP, PHONE, axeViolations } from './page-checks.ts';
import {
  pageKeepingErrors,
  signInAs,
  type OperatorsApp,
  PASSWORD,
  startWithOperators,
} from './operators-app.ts';
import { stack } from './stack.ts';
import { polledIn } from './time.ts';

const { simulatorUrl } = stack();
const OWNER = 'Wanjiru Owner';

let browser: Browser;
let app: OperatorsApp;

beforeAll(async () => {
  app = await startWithOperators(simulatorUrl, [[OWNER, 'owner']], { WEBHOOK_INTERVAL_MS: '100' });
  browser = await workerBrowser();
}, 90_000);
afterAll(async () => {
  await app?.stop();
});

/**
 * A signed-in owner's page, recording console errors other than the browser's line for a 4xx, on a
 * clock the test moves on to the deliveries list's next look (time.ts).
 */
async function ownerPage(viewport: { width: number; height: number }, next?: string) {
  const opened = await pageKeepingErrors(browser, viewport);
  await opened.page.clock.install();
  await signInAs(app, opened.page, OWNER, PASSWORD, { next });
  return opened;
}

interface InboxEntry {
  eventId: string | null;
  eventType: string | null;
  signature: string | null;
  eventIdHeader: string | null;
  body: string;
  status: number;
}

async function inboxEntries(eventId: string): Promise<InboxEntry[]> {
  const answer = await fetch(`${simulatorUrl}/_sim/webhooks/inbox`);
  const { entries } = (await answer.json()) as { entries: InboxEntry[] };
  return entries.filter((entry) => entry.eventId === eventId);
}

/** The scheme of docs/webhooks.md, written here again rather than imported from the API. */
function signatureHolds(body: string, header: string, secret: string): boolean {
  const parts = new Map(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.get('v1') ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const cell = (row: ReturnType<Page['locator']>, label: string) =>
  row.locator(`td[data-label="${label}"]`);

describe('webhooks', () => {
  it('an owner adds an endpoint at the simulator’s receiver, sends a test event, sees it delivered and resends it', async () => {
    const { context, page, errors } = await ownerPage(PHONE);
    await page
      .getByRole('navigation', { name: 'Owner' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await page.getByRole('heading', { level: 2, name: 'Webhooks' }).waitFor();
    await page.getByText('No endpoints yet.').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const receiver = `${simulatorUrl}/_sim/webhooks/inbox`;
    await page.getByRole('button', { name: 'Use the simulator’s receiver' }).click();
    expect(await page.getByLabel('URL', { exact: true }).inputValue()).toBe(receiver);
    // A new endpoint hears of every payment event unless its owner unticks some.
    for (const box of await page.getByRole('checkbox').all())
      expect(await box.isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: /The payer cancelled a payment/ }).uncheck();
    await page.getByRole('button', { name: 'Add endpoint' }).click();

    // The secret, this once.
    await page.getByRole('heading', { name: 'The endpoint’s signing secret' }).waitFor();
    const secret = (await page.locator('.once-shown-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_\S{20,}$/);
    expect(await axeViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByText(secret).count()).toBe(0);

    const endpoint = page.getByRole('article', { name: `Endpoint ${receiver}` });
    await endpoint.getByText('On: events are sent to it.').waitFor();
    const heard = (await endpoint.textContent()) ?? '';
    expect(heard).toContain('A till or paybill payment arrived');
    expect(heard).toContain('A payment was refunded');
    expect(heard).not.toContain('The payer cancelled a payment');
    await endpoint.getByRole('button', { name: `Send a test event: ${receiver}` }).click();
    const row = endpoint.locator('.webhook-deliveries tbody tr').first();
    // The list asks again every 2 s while a delivery is due: its clock moved on each time.
    await polledIn(page, cell(row, 'State').getByText('Delivered'));
    expect(await cell(row, 'Event').textContent()).toContain('Test event');
    expect((await cell(row, 'HTTP status').textContent())?.trim()).toBe('200');
    expect(await cell(row, 'Time taken').textContent()).toMatch(/^\d+ ms$/);
    expect(await cell(row, 'Answer').textContent()).toContain('"received":true');
    expect((await cell(row, 'Attempts').textContent())?.trim()).toBe('1');
    const eventId = ((await cell(row, 'Event').locator('code').textContent()) ?? '').trim();
    expect(eventId).toMatch(/^evt_/);
    expect(await axeViolations(page)).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);

    await row.getByRole('button', { name: `Resend Test event ${eventId}` }).click();
    await page.getByText('Sent again: its new attempt appears here in a moment.').waitFor();
    await polledIn(page, cell(row, 'Attempts').getByText('2', { exact: true }));
    await cell(row, 'State').getByText('Delivered').waitFor();

    // The receiver got the same event twice, signed with the secret shown on screen.
    const received = await inboxEntries(eventId);
    expect(received).toHaveLength(2);
    for (const entry of received) {
      expect(entry.status).toBe(200);
      expect(entry.eventType).toBe('webhook.test');
      expect(entry.eventIdHeader).toBe(eventId);
      expect(signatureHolds(entry.body, entry.signature ?? '', secret)).toBe(true);
      expect(signatureHolds(entry.body, entry.signature ?? '', `${secret}x`)).toBe(false);
      expect(JSON.parse(entry.body)).toMatchObject({ id: eventId, type: 'webhook.test' });
    }
    expect(errors).toEqual([]);
    await context.close();

    // The simulator's page shows it too, under "Webhooks received", with its signature header.
    const handset = await phonePage(browser);
    await handset.page.goto(simulatorUrl);
    const shownThere = handset.page
      .getByRole('region', { name: 'Webhooks received' })
      .locator('li', { hasText: eventId })
      .first();
    await shownThere.waitFor();
    expect(await shownThere.textContent()).toContain(received[0]!.signature!);
    expect(handset.errors).toEqual([]);
    await handset.page.context().close();

    // The same screen on a wide screen.
    const wide = await ownerPage(DESKTOP, '/webhooks');
    const card = wide.page.getByRole('article', { name: `Endpoint ${receiver}` });
    await card.locator('.webhook-deliveries tbody tr').first().waitFor();
    expect(await axeViolations(wide.page)).toEqual([]);
    expect(await fitsWidth(wide.page)).toBe(true);
    expect(wide.errors).toEqual([]);
    await wide.context.close();
  });
});
