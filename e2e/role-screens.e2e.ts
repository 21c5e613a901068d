/**
 * HISTORY_ACCESS=operators: every role's screens, in English and Kiswahili at 360 and 1280 px,
 * as each role goes through them signed in (once per role and language, the page resized for each
 * width, its first screen loaded afresh at that width and the others opened from it as the app's
 * links open them): each passes axe and fits the width, the header says who is signed in, and only
 * the owner is shown the owner's screens. (A file of its own, beside operators.e2e.ts, so that the
 * two run side by side.)
 *
 * This file starts an API of its own, with a paid payment and a timed-out one made as a payer
 * makes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { fitsWidth, networkQuiet, openInApp, workerBrowser } from './browser.ts';
import { DESKTOP, PHONE, axeViolations } from './page-checks.ts';
import {
  SIGN_IN,
  pageKeepingErrors,
  pay,
  phoneAnswering,
  signInAs,
  type OperatorsApp,
  PASSWORD,
  startWithOperators,
} from './operators-app.ts';
import { stack } from './stack.ts';
import { callbacksNow, polledIn } from './time.ts';

const { simulatorUrl } = stack();

let browser: Browser;
let app: OperatorsApp;
/** A paid payment's page, which every role reads. */
let paidPath = '';

beforeAll(async () => {
  app = await startWithOperators(simulatorUrl, [
    ['Olive Owner', 'owner'],
    ['Cate Cashier', 'cashier'],
    ['Vic Viewer', 'viewer'],
  ]);
  browser = await workerBrowser();
  const { context, page, errors } = await pageKeepingErrors(browser, PHONE);
  await page.clock.install();
  const paid = await pay(app, page, await phoneAnswering(simulatorUrl, '0'), '120', 'E2E PAID');
  await pay(app, page, await phoneAnswering(simulatorUrl, '1037'), '130', 'E2E TIMED OUT');
  await callbacksNow(simulatorUrl);
  await page.goto(paid);
  await polledIn(page, page.locator('.status-badge', { hasText: 'Success' }));
  paidPath = new URL(paid).pathname;
  expect(errors).toEqual([]);
  await context.close();
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

/** What each role's screens are, as it would go through them. */
const SCREENS_OF = {
  'Vic Viewer': ['/transactions'],
  'Cate Cashier': ['/', '/transactions'],
  'Olive Owner': ['/', '/transactions', '/operators', '/keys', '/audit'],
} as const;
const WIDTHS = [PHONE, DESKTOP] as const;

for (const language of ['English', 'Kiswahili'] as const) {
  const words = SIGN_IN[language];
  describe(`every role’s screens in ${language}`, () => {
    it('the sign-in screen passes axe and fits the width, at 360 and 1280 px', async () => {
      const { context, page, errors } = await pageKeepingErrors(browser, PHONE, words.locale);
      for (const viewport of WIDTHS) {
        await page.setViewportSize(viewport);
        await page.goto(`${app.url}/sign-in`);
        await page.getByRole('button', { name: words.button, exact: true }).waitFor();
        expect(await axeViolations(page), `/sign-in at ${viewport.width} px`).toEqual([]);
        expect(await fitsWidth(page), `/sign-in at ${viewport.width} px`).toBe(true);
      }
      expect(errors).toEqual([]);
      await context.close();
    });

    for (const [name, screens] of Object.entries(SCREENS_OF)) {
      // One sign-in for both widths: the page is resized, and loaded afresh at its width.
      describe(name, () => {
        let session: Awaited<ReturnType<typeof pageKeepingErrors>>;
        beforeAll(async () => {
          session = await pageKeepingErrors(browser, PHONE, words.locale);
          await signInAs(app, session.page, name, PASSWORD, { words });
        });
        afterAll(() => session?.context.close());

        for (const viewport of WIDTHS) {
          it(`at ${viewport.width} px: each screen passes axe and fits the width; the header says who is signed in`, async () => {
            const { page, errors } = session;
            await page.setViewportSize(viewport);
            for (const [index, screen] of [...screens, paidPath].entries()) {
              if (index === 0) await page.goto(`${app.url}${screen}`);
              else await openInApp(page, screen);
              await page.locator('main h2').first().waitFor();
              await page.getByText(`${words.signedIn} ${name}`).waitFor();
              // Whatever loads after the heading (the figures, the list) is in place before axe looks.
              await networkQuiet(page);
              expect(await axeViolations(page), `${name} on ${screen}`).toEqual([]);
              expect(await fitsWidth(page), `${name} on ${screen}`).toBe(true);
            }
            const ownerNav = await page.getByRole('navigation', { name: words.ownerNav }).count();
            expect(ownerNav).toBe(name === 'Olive Owner' ? 1 : 0);
            expect(errors).toEqual([]);
          });
        }
      });
    }
  });
}
