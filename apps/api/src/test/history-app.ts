/**
 * The history's tests: the app on a fresh database for each test, with a Daraja it must never
 * call, and payments written straight into the database one minute apart.
 */
import { afterEach, beforeEach } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { NewTransactionRow } from '../db/schema.ts';
import type { DialectName } from '../db/create-db.ts';
import { createTestDatabase, type TestDatabase } from './test-db.ts';
import { createTestApp } from './test-app.ts';
import { storedPayment } from './stored-payment.ts';

/** A Daraja the history never calls: any call fails the test. */
export const DARAJA_NOT_CALLED = {
  stkPush: () => Promise.reject(new Error('not called')),
  stkQuery: () => Promise.reject(new Error('not called')),
};

export interface HistoryApp {
  readonly app: FastifyInstance;
  readonly database: TestDatabase;
  /** A payment a minute after the one added before it (so the newest is the last added). */
  add(id: string, fields: Partial<NewTransactionRow>): Promise<void>;
}

/** Registers, in the calling `describe`, a fresh database and app for each of its tests. */
export function historyApp(dialect: DialectName): HistoryApp {
  let database: TestDatabase | undefined;
  let app: FastifyInstance | undefined;
  let minute = 0;
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    ({ app } = await createTestApp({ database, daraja: DARAJA_NOT_CALLED }));
    minute = 0;
  });
  afterEach(async () => {
    await app?.close();
    await database?.destroy();
  });
  return {
    get app() {
      return app!;
    },
    get database() {
      return database!;
    },
    async add(id, fields) {
      minute++;
      const at = new Date(Date.UTC(2026, 10, 20, 9, minute)).toISOString();
      await database!.db
        .insertInto('transactions')
        .values(storedPayment(id, at, { phone_number: '254799999999', ...fields }))
        .execute();
    },
  };
}
