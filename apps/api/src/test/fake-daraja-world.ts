/**
 * The world of a fault test: for each test a fresh database of the given dialect, a clock the test
 * moves, and the API built on it against a fake Daraja the test scripts (or any Daraja URL).
 * Registers its own hooks; whatever a test starts through it is closed after the test.
 */
import { afterEach, beforeEach } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { DialectName } from '../db/create-db.ts';
import { createTestDatabase, type TestDatabase } from './test-db.ts';
import { CALLBACK_PATH, createTestApp } from './test-app.ts';
import { startFakeDaraja, type FakeDaraja, type PushBehaviour } from './fake-daraja.ts';
import { reconcileOnce } from './reconcile.ts';

export interface FakeDarajaWorld {
  readonly database: TestDatabase;
  readonly app: FastifyInstance;
  /** What the API and the reconciler take for now, in ms; tests move it. */
  clock: number;
  /** Starts a fake Daraja behaving so (closed after the test). */
  startFake(behaviour: PushBehaviour): Promise<FakeDaraja>;
  /** Builds the API against `darajaUrl` (DARAJA_TIMEOUT_MS 300 unless `env` says otherwise). */
  build(darajaUrl: string, env?: Record<string, string>): Promise<void>;
  pay(phoneNumber?: string, amount?: number): Promise<LightMyRequestResponse>;
  /** Posts a callback (an object as JSON, a string as it is) to the callback path. */
  deliver(payload: unknown): Promise<LightMyRequestResponse>;
  row(id: string): Promise<Awaited<ReturnType<typeof findRow>>>;
  /** What became of each callback received, in order. */
  outcomes(): Promise<string[]>;
  /** One reconciliation pass against the last fake started, at the world's clock. */
  reconcile(env?: Record<string, string>): Promise<number>;
}

const findRow = (database: TestDatabase, id: string) =>
  database.db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export function useApiWithFakeDaraja(dialect: DialectName): FakeDarajaWorld {
  let database: TestDatabase;
  let app: FastifyInstance | undefined;
  let fakes: FakeDaraja[] = [];
  let clock = Date.now();
  const built = () => {
    if (!app) throw new Error('build() the API first');
    return app;
  };

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    clock = Date.now();
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    for (const fake of fakes) await fake.close();
    fakes = [];
    await database.destroy();
  });

  return {
    get database() {
      return database;
    },
    get app() {
      return built();
    },
    get clock() {
      return clock;
    },
    set clock(ms: number) {
      clock = ms;
    },
    async startFake(behaviour) {
      const fake = await startFakeDaraja(behaviour);
      fakes.push(fake);
      return fake;
    },
    async build(darajaUrl, env = {}) {
      await app?.close();
      ({ app } = await createTestApp({
        database,
        env: { MPESA_BASE_URL: darajaUrl, DARAJA_TIMEOUT_MS: '300', ...env },
        now: () => new Date(clock),
      }));
    },
    pay: (phoneNumber = '0712345678', amount = 100) =>
      built().inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        payload: { phoneNumber, amount },
      }),
    deliver: (payload) =>
      built().inject({
        method: 'POST',
        url: CALLBACK_PATH,
        headers: { 'content-type': 'application/json' },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      }),
    row: (id) => findRow(database, id),
    outcomes: async () => {
      const rows = await database.db
        .selectFrom('callbacks')
        .select('outcome')
        .orderBy('id')
        .execute();
      return rows.map((callback) => callback.outcome);
    },
    reconcile: (env = {}) => {
      const fake = fakes.at(-1);
      if (!fake) throw new Error('startFake() first');
      return reconcileOnce(database, {
        darajaUrl: fake.url,
        now: () => new Date(clock),
        env: { DARAJA_TIMEOUT_MS: '300', ...env },
      });
    },
  };
}
