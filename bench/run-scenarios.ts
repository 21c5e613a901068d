/**
 * bench/run.ts's scenarios of our API: the servers they load (a shop with five payments, one with
 * 1,000,000, and one taking writes), each started as `npm start` runs it, and the request each
 * scenario sends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDb } from '../apps/api/src/db/create-db.ts';
import { storedPayment } from '../apps/api/src/test/stored-payment.ts';
import { TEST_DATABASE_URL } from '../apps/api/src/test/test-db.ts';
import {
  requireExpectedAnswer,
  seededPayments,
  startApi,
  type Dialect,
  type ServerProcess,
} from './lib.ts';
import { callbackFor, writeScenarios } from './run-writes.ts';
import { CALLBACK_TARGETS, SECRET, get, type Scenario } from './scenario.ts';

const MILLION = 1_000_000;

/** The settings that point the API at a database of its own, created empty. */
async function emptyDatabase(
  dialect: Dialect,
  name: string,
): Promise<{ env: Record<string, string>; url: string; schema?: string; cleanUp: () => unknown }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), `mpesa-bench-${name}-`));
    return {
      env: { DATA_DIR: dir },
      url: path.join(dir, 'mpesa.sqlite'),
      cleanUp: () => rmSync(dir, { recursive: true }),
    };
  }
  const schema = `bench_${name}`;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
  return {
    env: { DATABASE_URL: TEST_DATABASE_URL!, DATABASE_SCHEMA: schema },
    url: TEST_DATABASE_URL!,
    schema,
    cleanUp: async () => {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

/** Our API as `npm start` runs it, on these database settings, calling the simulator. */
function startOurApi(name: string, env: Record<string, string>, simulatorUrl: string) {
  return startApi(name, {
    MPESA_BASE_URL: simulatorUrl,
    MPESA_CALLBACK_SECRET: SECRET,
    // The check stays on; at this height it refuses no one.
    STKPUSH_RATE_LIMIT: '1000000',
    // The pool's size, to measure another (the bare SELECT 1 route takes the same).
    ...(process.env.DATABASE_POOL_SIZE
      ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE }
      : {}),
    ...env,
  });
}

/** A shop with five payments. */
async function smallShop(dialect: Dialect, simulator: ServerProcess, cleanUps: (() => unknown)[]) {
  const small = await emptyDatabase(dialect, 'small');
  cleanUps.push(small.cleanUp);
  const api = await startOurApi(`the API (${dialect}, 5 payments)`, small.env, simulator.url);
  cleanUps.push(() => api.stop());
  const { db } = createDb(small.url, small.schema ? { schema: small.schema } : {});
  const at = Date.parse('2026-11-20T09:00:00.000Z');
  await db
    .insertInto('transactions')
    .values(
      Array.from({ length: 5 }, (_, i) =>
        storedPayment(`bench-small-${i}`, new Date(at + i * 60_000).toISOString(), {
          reference: `INV-${i}`,
          mpesa_receipt_number: `UBENCH000${i}`,
          result_code: '0',
        }),
      ),
    )
    .execute();
  await db.destroy();
  return api;
}

/** A payer's number as the seeder writes it for a payment by prompt: all of it, no mask. */
const WHOLE_NUMBER = /^254\d{9}$/;

/** A million payments, and phones of the payments by prompt on their first page to search for. */
async function millionShop(
  dialect: Dialect,
  simulator: ServerProcess,
  cleanUps: (() => unknown)[],
) {
  const api = await startOurApi(
    `the API (${dialect}, 1,000,000 payments)`,
    (await seededPayments(dialect, MILLION, true)).env,
    simulator.url,
  );
  cleanUps.push(() => api.stop());
  const response = await fetch(`${api.url}/api/mpesa/transactions?limit=200`);
  const text = await response.text();
  requireExpectedAnswer('phone search in 1,000,000', 'the first page', response.status, text);
  const firstPage = JSON.parse(text) as { data: { phoneNumber: string }[] };
  // Till and paybill payments show the payer's number masked (`2547 ***** 126`): a search for
  // one finds nothing, and its spaces and asterisks are no phone number.
  const phones = [
    ...new Set(
      firstPage.data.map((row) => row.phoneNumber).filter((phone) => WHOLE_NUMBER.test(phone)),
    ),
  ];
  if (phones.length === 0) throw new Error('the first page has no payment by prompt to search');
  return { api, phones };
}

/** Payments waiting for their callbacks, and the payments the simulator will prompt for. */
async function writingShop(
  dialect: Dialect,
  simulator: ServerProcess,
  cleanUps: (() => unknown)[],
) {
  const writes = await emptyDatabase(dialect, 'writes');
  cleanUps.push(writes.cleanUp);
  const api = await startOurApi(`the API (${dialect}, writes)`, writes.env, simulator.url);
  cleanUps.push(() => api.stop());
  const { db } = createDb(writes.url, writes.schema ? { schema: writes.schema } : {});
  const at = new Date().toISOString();
  for (let start = 0; start < CALLBACK_TARGETS; start += 1000) {
    await db
      .insertInto('transactions')
      .values(
        Array.from({ length: 1000 }, (_, i) =>
          storedPayment(`bench-cb-${start + i}`, at, {
            status: 'pending',
            phone_number: `2547${String(start + i).padStart(8, '0')}`,
            amount: 10,
            checkout_request_id: `ws_CO_BENCH${start + i}`,
            merchant_request_id: `bench-${start + i}`,
            next_check_at: '2099-01-01T00:00:00.000Z',
          }),
        ),
      )
      .execute();
  }
  await db.destroy();
  // A second instance on the same database, as a merchant grows out (PostgreSQL only).
  const api2 =
    dialect === 'postgres'
      ? await startOurApi(`the API (${dialect}, writes, 2nd)`, writes.env, simulator.url)
      : undefined;
  if (api2) cleanUps.push(() => api2.stop());
  return { api, api2 };
}

function readScenarios(
  dialect: Dialect,
  smallApi: ServerProcess,
  millionApi: ServerProcess,
  phones: readonly string[],
): Scenario[] {
  let phonesAsked = 0;
  return [
    { name: 'GET /api/health', dialect, server: smallApi, request: get('/api/health') },
    {
      name: 'one transaction by id',
      dialect,
      server: smallApi,
      // On PostgreSQL a read is a round trip to another process: measured against the fastest one.
      target: dialect === 'sqlite' ? { ratio: 0.5, aboveExpress: true } : { selectOneRatio: 0.8 },
      request: get('/api/mpesa/transactions/bench-small-2'),
    },
    {
      name: 'history, first page (5 payments)',
      dialect,
      server: smallApi,
      ...(dialect === 'sqlite' ? { target: { ratio: 0.3, aboveExpress: true } } : {}),
      request: get('/api/mpesa/transactions'),
    },
    {
      name: 'history, first page (50 of 1,000,000)',
      dialect,
      server: millionApi,
      request: get('/api/mpesa/transactions'),
    },
    {
      name: 'phone search in 1,000,000',
      dialect,
      server: millionApi,
      // As the payer would type it (0712…), URL-encoded as any search text must be.
      request: () =>
        get(
          `/api/mpesa/transactions?q=${encodeURIComponent(`0${phones[phonesAsked++ % phones.length]!.slice(3)}`)}`,
        )(),
    },
  ];
}

/** Our API's scenarios on one database, each server started and filled. */
export async function scenariosFor(
  dialect: Dialect,
  simulator: ServerProcess,
  cleanUps: (() => unknown)[],
): Promise<Scenario[]> {
  const smallApi = await smallShop(dialect, simulator, cleanUps);
  const million = await millionShop(dialect, simulator, cleanUps);
  const writes = await writingShop(dialect, simulator, cleanUps);
  const writesApi = writes.api;
  const scenarios = [
    ...readScenarios(dialect, smallApi, million.api, million.phones),
    ...writeScenarios(dialect, writesApi, writes.api2),
  ];
  // The one callback delivered again must have been delivered once.
  const first = await fetch(`${writesApi.url}/api/mpesa/callback/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(callbackFor(0)),
  });
  requireExpectedAnswer(
    'callbacks, one delivered again',
    'its first delivery',
    first.status,
    await first.text(),
  );
  return scenarios;
}
