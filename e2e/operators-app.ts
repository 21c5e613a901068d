/**
 * A second API for the browser tests of HISTORY_ACCESS=operators: the same simulator as the
 * others, its own port and data folder, and operators made by `npm run operator`'s command as a
 * shop's owner would make them, called in this process (operator-cli.test.ts starts the program).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { nextScreen } from './browser.ts';
import { newContext } from './page-checks.ts';
import { waitForHttp } from '../scripts/lib.ts';
import { serverBundle } from '../scripts/server-bundle.ts';
import { createDb } from '../apps/api/src/db/create-db.ts';
import type { Database } from '../apps/api/src/db/schema.ts';
import { operatorCommand } from '../apps/api/src/operator-cli.ts';
import { called } from '../apps/api/src/test/command.ts';

export interface OperatorsApp {
  url: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startOperatorsApp(
  simulatorUrl: string,
  /** Settings of this app's own (e.g. its till: MPESA_C2B_SHORTCODE). */
  more: NodeJS.ProcessEnv = {},
): Promise<OperatorsApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-e2e-operators-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    SIMULATOR_PORT: new URL(simulatorUrl).port,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    MPESA_ENV: 'simulator',
    HISTORY_ACCESS: 'operators',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    STKPUSH_RATE_LIMIT: '100',
    // scrypt at 2^10 instead of 2^15: a sign-in's hash takes about 3 ms instead of 94, and these
    // tests sign in some 30 times and add operators by the command line (docs/performance.md).
    PASSWORD_HASH_COST: '10',
    ...more,
  };
  // server.ts, bundled (scripts/server-bundle.ts).
  const child: ChildProcess = spawn(process.execPath, [await serverBundle('api')], {
    env,
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/api/health`, 30_000, child);
  return {
    url,
    dataDir,
    env,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) =>
        child.exitCode !== null ? resolve(null) : child.once('exit', resolve),
      );
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The app's database, for a test that must put a payment in a state no simulator flow reaches fast. */
export async function withAppDatabase<T>(
  app: OperatorsApp,
  use: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const { db } = createDb(path.join(app.dataDir, 'mpesa.sqlite'));
  try {
    return await use(db);
  } finally {
    await db.destroy();
  }
}

/**
 * A page that records console errors other than the browser's own line for a 4xx answer (the
 * operators' screens meet refusals on purpose: a payer asking for the history, a role refused).
 */
export async function pageKeepingErrors(
  browser: Browser,
  viewport: { width: number; height: number },
  locale = 'en-KE',
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newContext(browser, viewport, locale);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (
      /Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
    ) {
      return;
    }
    errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Every operator's password in the browser tests. */
export const PASSWORD = 'correct horse battery staple';

/**
 * The app (startOperatorsApp, with `more` settings) with these operators, each a name and a role
 * with PASSWORD, added by the command line as a shop's owner adds the first ones.
 */
export async function startWithOperators(
  simulatorUrl: string,
  operators: readonly (readonly [name: string, role: string])[],
  more: NodeJS.ProcessEnv = {},
): Promise<OperatorsApp> {
  const app = await startOperatorsApp(simulatorUrl, more);
  for (const [name, role] of operators) {
    const made = await called(operatorCommand, ['add', name, '--role', role], {
      env: app.env,
      input: `${PASSWORD}\n`,
    });
    if (made.code !== 0) throw new Error(`${name} could not be added: ${made.output}`);
  }
  return app;
}

/** What signing in says, in each language (the browser's language chooses it). */
export const SIGN_IN = {
  English: {
    locale: 'en-KE',
    name: 'Name',
    password: 'Password',
    button: 'Sign in',
    signedIn: 'Signed in as',
    ownerNav: 'Owner',
  },
  Kiswahili: {
    locale: 'sw-KE',
    name: 'Jina',
    password: 'Nenosiri',
    button: 'Ingia',
    signedIn: 'Umeingia kama',
    ownerNav: 'Mmiliki',
  },
} as const;
type SignInWords = (typeof SIGN_IN)[keyof typeof SIGN_IN];

/**
 * Signs `name` in on the app's sign-in screen (in `words`' language, English unless told), and
 * waits until the header says so and the screen it leads to has taken the sign-in form's place
 * (`nextScreen`: a test that typed into "Name" as soon as the address changed would fill in the
 * sign-in form): the history, or `next` (a path of the app, as `/sign-in?next=` gives it), opened
 * without loading the page again.
 */
export async function signInAs(
  app: OperatorsApp,
  page: Page,
  name: string,
  password: string,
  { words = SIGN_IN.English, next }: { words?: SignInWords; next?: string } = {},
) {
  const query = next ? `?next=${encodeURIComponent(next)}` : '';
  await page.goto(`${app.url}/sign-in${query}`);
  await page.getByLabel(words.name, { exact: true }).fill(name);
  await page.getByLabel(words.password, { exact: true }).fill(password);
  const form = await page.locator('main h2').first().elementHandle();
  await page.getByRole('button', { name: words.button, exact: true }).click();
  await page.getByText(`${words.signedIn} ${name}`).waitFor();
  await nextScreen(page, form);
  if (next) await page.waitForURL((url) => `${url.pathname}${url.search}` === next);
}

let numbers = 0;
/** A number of the caller's own, that the simulator answers with `outcome` after its delay. */
export async function phoneAnswering(simulatorUrl: string, outcome: string): Promise<string> {
  const phone = `2547${String(Date.now() + numbers++).slice(-8)}`;
  const told = await fetch(`${simulatorUrl}/_sim/numbers/${phone}/next`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ outcome }),
  });
  if (told.status !== 200)
    throw new Error(`the simulator refused ${phone}'s outcome: ${told.status}`);
  return phone;
}

/** Pays from the app's form, as a payer does; the payment's page's address once it is sent. */
export async function pay(
  app: OperatorsApp,
  page: Page,
  phone: string,
  amount: string,
  reference: string,
): Promise<string> {
  await page.goto(app.url);
  await page.getByLabel('Phone Number').fill(phone);
  await page.getByLabel('Amount (KES)').fill(amount);
  await page.getByLabel('Reference').fill(reference);
  await page.getByRole('button', { name: 'Pay with M-PESA' }).click();
  await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/, { timeout: 15_000 });
  return page.url();
}
