/**
 * Registering the C2B URLs (docs/daraja-protocol.md §M3.1): a URL Daraja would refuse is never
 * sent; at start-up Daraja not reachable yet is tried again, and each failure logged once; and
 * `npm run c2b:register` against the simulator as Daraja says what it did, or why not.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { callbackUrls } from '../../callbacks/callback-paths.ts';
import { CALLBACK_ROUTES } from '../index.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import type { C2bRegistration } from '../../daraja/daraja-client.ts';
import { startSimulator, type RunningSimulator } from '../../test/simulator.ts';
import { C2bRegistrationError, registerC2b, startC2bRegistration } from './c2b-registration.ts';
import type { C2bSettings } from './validation-decision.ts';

const SETTINGS: C2bSettings = {
  shortcode: '600100',
  version: 'v2',
  validation: 'off',
  responseType: 'Completed',
  register: 'start',
  minAmount: 1,
  maxAmount: 250_000,
};

/** A Daraja that fails as told, then registers; what it was sent. */
function daraja(failures: DarajaError[]) {
  const sent: C2bRegistration[] = [];
  return {
    sent,
    money: {
      registerC2bUrls: async (registration: C2bRegistration) => {
        const failure = failures.shift();
        if (failure) throw failure;
        sent.push(registration);
        return { description: 'Success' };
      },
    },
  };
}

function logger() {
  const lines: { level: string; text: string }[] = [];
  const at = (level: string) => (first: unknown, second?: unknown) =>
    lines.push({ level, text: String(typeof first === 'string' ? first : second) });
  const log = { info: at('info'), warn: at('warn'), error: at('error') };
  return { lines, log: log as unknown as FastifyBaseLogger };
}

describe('registering the C2B URLs', () => {
  it('refuses a URL holding a word Daraja refuses, naming the word and what to change', async () => {
    const { money, sent } = daraja([]);
    const attempt = registerC2b({
      money,
      settings: SETTINGS,
      callbackUrlFor: callbackUrls(
        CALLBACK_ROUTES,
        'https://pay.mpesa-shop.example',
        'secret-of-the-shop-0001',
      ),
    });
    await expect(attempt).rejects.toThrow(C2bRegistrationError);
    await expect(attempt).rejects.toThrow(/"MPESA".*MPESA_CALLBACK_URL or MPESA_CALLBACK_SECRET/);
    const inSecret = registerC2b({
      money,
      settings: SETTINGS,
      callbackUrlFor: callbackUrls(
        CALLBACK_ROUTES,
        'https://shop.example',
        'secret-with-sql-in-it-0001',
      ),
    });
    await expect(inSecret).rejects.toThrow(/"SQL"/);
    await expect(inSecret).rejects.not.toThrow(/secret-with/);
    expect(sent).toEqual([]);
  });

  it('tries again at start-up while Daraja cannot be reached, logging each failure once', async () => {
    const unreachable = () => new DarajaError('unreachable', 'connect ECONNREFUSED 127.0.0.1:3001');
    const { money, sent } = daraja([unreachable(), unreachable(), unreachable()]);
    const { lines, log } = logger();
    const registration = startC2bRegistration({
      money,
      settings: SETTINGS,
      callbackUrlFor: callbackUrls(
        CALLBACK_ROUTES,
        'http://127.0.0.1:3000',
        'secret-of-the-shop-0001',
      ),
      log,
      firstDelayMs: 5,
    });
    expect(await registration.done).toBe(true);
    expect(sent).toEqual([
      {
        shortcode: '600100',
        version: 'v2',
        responseType: 'Completed',
        confirmationUrl: 'http://127.0.0.1:3000/api/c2b/secret-of-the-shop-0001/confirmation',
        validationUrl: 'http://127.0.0.1:3000/api/c2b/secret-of-the-shop-0001/validation',
      },
    ]);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    expect(lines.at(-1)).toEqual({
      level: 'info',
      text: 'C2B URLs registered with Daraja for 600100',
    });
  });

  it('gives up at once on a refusal, and when stopped, never throwing', async () => {
    const refused = new DarajaError(
      'rejected',
      'Daraja refused the C2B URLs: HTTP 500 Urls are already registered.',
    );
    const { money } = daraja([refused]);
    const { lines, log } = logger();
    const options = {
      money,
      settings: SETTINGS,
      callbackUrlFor: callbackUrls(
        CALLBACK_ROUTES,
        'http://127.0.0.1:3000',
        'secret-of-the-shop-0001',
      ),
      log,
    };
    expect(await startC2bRegistration(options).done).toBe(false);
    expect(lines).toEqual([
      { level: 'error', text: expect.stringContaining('run npm run c2b:register') },
    ]);
    const forever = daraja(
      Array.from({ length: 100 }, () => new DarajaError('unknown', 'timed out')),
    );
    const stopping = startC2bRegistration({ ...options, money: forever.money, firstDelayMs: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    stopping.stop();
    expect(await stopping.done).toBe(false);
  });
});

describe('npm run c2b:register', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(async () => {
    await simulator.close();
  });

  const CLI = path.resolve(import.meta.dirname, '../../c2b-cli.ts');
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [CLI],
        {
          env: {
            PATH: process.env.PATH ?? '',
            NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? '',
            MPESA_BASE_URL: simulator.url,
            MPESA_CALLBACK_SECRET: 'secret-of-the-shop-0001',
            DATA_DIR: '/nonexistent-c2b-cli',
            LOG_LEVEL: 'silent',
            ...env,
          },
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
      );
    });

  it('registers the till with the simulator and says where, the secret masked', async () => {
    const { code, output } = await run({ MPESA_CALLBACK_URL: 'https://shop.example' });
    expect(output).toContain('Registered the C2B URLs of 600100');
    expect(output).toContain('https://shop.example/api/c2b/[redacted]/confirmation');
    expect(output).not.toContain('secret-of-the-shop');
    expect(code).toBe(0);
  });

  it('refuses a URL with a forbidden word, and a Daraja that cannot be reached, exiting 1', async () => {
    const forbidden = await run({ MPESA_CALLBACK_URL: 'https://mpesa.shop.example' });
    expect(forbidden).toMatchObject({ code: 1, output: expect.stringContaining('"MPESA"') });
    const gone = await run({
      MPESA_BASE_URL: 'http://127.0.0.1:9',
      MPESA_CALLBACK_URL: 'https://shop.example',
    });
    expect(gone.code).toBe(1);
    expect(gone.output).toContain('Daraja did not register the C2B URLs of 600100');
  });
});
