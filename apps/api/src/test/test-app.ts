/** Builds the API for a test: its own database, a quiet logger, and the Daraja client it is given. */
import { loadConfig } from '../config.ts';
import { buildApp } from '../app.ts';
import { createDarajaClient, type DarajaClient } from '../daraja/daraja-client.ts';
import type { TestDatabase } from './test-db.ts';

export const TEST_CALLBACK_SECRET = 'test-callback-secret-0123456789';
export const CALLBACK_PATH = `/api/mpesa/callback/${TEST_CALLBACK_SECRET}`;
/**
 * scrypt's log2 N in tests (PASSWORD_HASH_COST): 2^10, some 32 times quicker than the default 2^15.
 * Operators a test adds itself are hashed at it too (addOperator's `passwordHashCost`): a sign-in
 * verifies at the cost stored with the hash.
 */
export const TEST_PASSWORD_HASH_COST = 10;

export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    MPESA_CALLBACK_SECRET: TEST_CALLBACK_SECRET,
    DATA_DIR: '/nonexistent-test-data-dir',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    LOG_LEVEL: 'silent',
    // Production refuses a cost below its own: its tests hash as production does.
    ...(env.MPESA_ENV === 'production'
      ? {}
      : { PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST) }),
    ...env,
  });
}

export interface TestAppOptions {
  database: TestDatabase;
  /** A Daraja client; by default one that talks to `darajaBaseUrl` (a simulator). */
  daraja?: DarajaClient;
  env?: Record<string, string>;
  now?: () => Date;
  /** Register the C2B URLs once listening, as server.ts does (app.ts `registerC2b`). */
  registerC2b?: boolean;
}

export async function createTestApp({
  database,
  daraja,
  env = {},
  now,
  registerC2b = false,
}: TestAppOptions) {
  const config = testConfig(env);
  // Refunds and till payments talk to Daraja at MPESA_BASE_URL (a simulator), whatever `daraja` is.
  const money = createDarajaClient({ ...config.mpesa, initiator: config.refunds.initiator });
  const app = await buildApp({
    config,
    callbackSecret: TEST_CALLBACK_SECRET,
    database,
    daraja: daraja ?? money,
    money,
    logger: false,
    registerC2b,
    ...(now ? { now } : {}),
  });
  await app.ready();
  return { app, config };
}
