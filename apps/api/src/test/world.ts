/**
 * The usual world of an API test: the Daraja simulator for the file, and for each test a fresh
 * database of the given dialect with the API built on it. Registers its own hooks.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { DialectName } from '../db/create-db.ts';
import { createTestDatabase, type TestDatabase } from './test-db.ts';
import { createTestApp } from './test-app.ts';
import { startSimulator, type RunningSimulator } from './simulator.ts';

export interface World {
  readonly simulator: RunningSimulator;
  readonly database: TestDatabase;
  readonly app: FastifyInstance;
  /** Rebuilds the API on the same database with other settings. */
  rebuild(env: Record<string, string>): Promise<void>;
}

export function useApiWithSimulator(
  dialect: DialectName,
  options: { env?: Record<string, string>; now?: () => Date } = {},
): World {
  let simulator: RunningSimulator;
  let database: TestDatabase;
  let app: FastifyInstance;

  const build = async (env: Record<string, string> = {}) => {
    ({ app } = await createTestApp({
      database,
      env: { MPESA_BASE_URL: simulator.url, ...options.env, ...env },
      ...(options.now ? { now: options.now } : {}),
    }));
  };

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(async () => {
    await simulator.close();
  });
  beforeEach(async () => {
    simulator.prompts.reset();
    simulator.log.clear();
    database = await createTestDatabase(dialect);
    await build();
  });
  afterEach(async () => {
    await app.close();
    await database.destroy();
  });

  return {
    get simulator() {
      return simulator;
    },
    get database() {
      return database;
    },
    get app() {
      return app;
    },
    async rebuild(env) {
      await app.close();
      await build(env);
    },
  };
}
