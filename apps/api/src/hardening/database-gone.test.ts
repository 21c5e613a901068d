/**
 * The database goes away and comes back, reproduced inside the process. On SQLite a
 * full disk, a read-only file and a lock held by another process; on PostgreSQL connections cut,
 * refused, and a server that stops answering without closing them (through a TCP proxy). Each is
 * answered 503 DATABASE_UNAVAILABLE in our shape with Retry-After, never 500; nothing the client
 * was told had happened is lost; and the API answers again by itself once the database is back.
 * Also: a success callback with nothing to check, and the data folder's permissions.
 * The two-process outage with a real PostgreSQL restart is database-outage.test.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import {
  DIALECTS,
  TEST_DATABASE_URL,
  createTestDatabase,
  type TestDatabase,
} from '../test/test-db.ts';
import { ackBody, startFakeDaraja, type FakeDaraja } from '../test/fake-daraja.ts';
import { useApiWithFakeDaraja } from '../test/fake-daraja-world.ts';
import { CALLBACK_PATH, createTestApp } from '../test/test-app.ts';
import { successCallback } from '../test/callbacks.ts';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy.ts';
import { createDb, migrateToLatest, type DbHandle } from '../db/create-db.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { seedDatabase } from '../seed/seed.ts';
import { FILE_GONE_MESSAGE } from '../db/transact.ts';
import { DATABASE_RETRY_AFTER_S } from '../errors.ts';

/** The answer every request gets while the database cannot take it. */
function expectUnavailable(answer: LightMyRequestResponse, what: string): void {
  expect(answer.statusCode, `${what}: ${answer.body}`).toBe(503);
  expect(answer.headers['retry-after'], what).toBe(String(DATABASE_RETRY_AFTER_S));
  expect(answer.json(), what).toMatchObject({ success: false, code: 'DATABASE_UNAVAILABLE' });
  expect(typeof answer.json().message, what).toBe('string');
}

/** The fake Daraja the app pushes to: each payment is acknowledged with a CheckoutRequestID of its own. */
let daraja: FakeDaraja | undefined;
let pushes = 0;
const pay = (app: FastifyInstance, phoneNumber: string, amount = 100) => {
  if (daraja)
    daraja.behaviour = { kind: 'answer', status: 200, body: ackBody(`ws_CO_${++pushes}`) };
  return app.inject({
    method: 'POST',
    url: '/api/mpesa/stkpush',
    payload: { phoneNumber, amount },
  });
};
const deliver = (app: FastifyInstance, body: unknown) =>
  app.inject({
    method: 'POST',
    url: CALLBACK_PATH,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

/** The requests a client makes, each answered 503 in our shape while the database is away. */
async function expectEveryRouteUnavailable(app: FastifyInstance): Promise<void> {
  expectUnavailable(await pay(app, '0712000001'), 'a new payment');
  expectUnavailable(await app.inject('/api/mpesa/transactions'), 'the list');
  expectUnavailable(await app.inject('/api/mpesa/summary'), 'the summary');
  expectUnavailable(await app.inject('/api/mpesa/transactions/some-id'), 'one payment');
  expectUnavailable(await app.inject('/api/mpesa/transactions/export'), 'the export');
  const callback = await deliver(
    app,
    successCallback('ws_CO_gone', { amount: 1, phoneNumber: '254712000001' }),
  );
  expectUnavailable(callback, 'a callback');
  expect((await app.inject('/api/health')).statusCode).toBe(200);
  expect((await app.inject('/api/ready')).statusCode).toBe(503);
}

describe('SQLite that cannot take writes', () => {
  let fake: FakeDaraja | undefined;
  let app: FastifyInstance | undefined;
  const dirs: string[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await app?.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await fake?.close();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function build(file?: string) {
    const database = await createTestDatabase('sqlite', file ? { file } : {});
    fake = daraja = await startFakeDaraja({ kind: 'answer', status: 200, body: ackBody('ws_CO') });
    ({ app } = await createTestApp({ database, env: { MPESA_BASE_URL: fake.url } }));
    return { database, app };
  }

  it('answers 503 while the disk is full, keeps every record whole, and takes writes again once there is room', async () => {
    const { database, app } = await build();
    const [{ page_count: pages }] = (
      await sql<{ page_count: number }>`pragma page_count`.execute(database.db)
    ).rows as [{ page_count: number }];
    // No room to grow: the callback's 30 KB body needs pages the file cannot have.
    await sql.raw(`pragma max_page_count = ${pages}`).execute(database.db);
    const big = {
      ...successCallback('ws_CO_full', { amount: 1, phoneNumber: '254712000001' }),
      padding: 'x'.repeat(30_000),
    };
    expectUnavailable(await deliver(app, big), 'a callback on a full disk');
    expect(await database.db.selectFrom('callbacks').selectAll().execute()).toEqual([]);
    // Reading needs no room.
    expect((await app.inject('/api/mpesa/transactions')).statusCode).toBe(200);

    await sql.raw('pragma max_page_count = 1073741823').execute(database.db);
    expect((await deliver(app, big)).statusCode).toBe(200);
    expect(await database.db.selectFrom('callbacks').select('outcome').execute()).toEqual([
      { outcome: 'orphan' },
    ]);
  });

  it('answers 503 while the file is read-only, reads still served, and carries on when it is writable again', async () => {
    const { database, app } = await build();
    await sql`pragma query_only = on`.execute(database.db);
    expectUnavailable(await pay(app, '0712000002'), 'a payment on a read-only file');
    expectUnavailable(
      await deliver(app, successCallback('ws_CO_ro', { amount: 1, phoneNumber: '254712000002' })),
      'a callback on a read-only file',
    );
    expect((await app.inject('/api/mpesa/transactions')).json()).toMatchObject({ data: [] });

    await sql`pragma query_only = off`.execute(database.db);
    const paid = await pay(app, '0712000002');
    expect(paid.statusCode, paid.body).toBe(200);
  });

  /** The API on an SQLite file as the server opens it: writes wait `busyMs` for another's lock. */
  async function buildOnFile(busyMs: number) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-lock-'));
    dirs.push(dir);
    const file = path.join(dir, 'locked.sqlite');
    const handle = createDb(file, { timeouts: { connectMs: 1000, statementMs: 1000, busyMs } });
    await migrateToLatest(handle);
    const database = {
      ...handle,
      url: file,
      schema: undefined,
      destroy: () => handle.db.destroy(),
    };
    fake = daraja = await startFakeDaraja({ kind: 'answer', status: 200, body: ackBody('ws_CO') });
    ({ app } = await createTestApp({ database, env: { MPESA_BASE_URL: fake.url } }));
    cleanups.push(() => handle.db.destroy());
    const other = new DatabaseSync(file);
    cleanups.push(async () => {
      if (other.isOpen) other.close();
    });
    return { app, other, file };
  }

  /** How long the health check takes while `pending` waits for the lock. */
  async function healthWhile(app: FastifyInstance, pending: Promise<unknown>) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    const ms = performance.now() - started;
    await pending;
    return ms;
  }

  it('answers 503 once another process has held the lock for DATABASE_BUSY_TIMEOUT_MS, answering everything else meanwhile', async () => {
    const { app, other } = await buildOnFile(600);
    other.exec('begin immediate');
    try {
      const started = performance.now();
      const paying = pay(app, '0712000003');
      // The process is not stopped while the payment waits: node:sqlite waits on the main thread,
      // so the wait is taken in pauses between tries (db/transact.ts).
      expect(await healthWhile(app, paying)).toBeLessThan(200);
      expectUnavailable(await paying, 'a payment while another process writes');
      expect(performance.now() - started).toBeGreaterThanOrEqual(500);
      expect((await app.inject('/api/mpesa/transactions')).statusCode).toBe(200);
    } finally {
      other.exec('rollback');
    }
    expect((await pay(app, '0712000003')).statusCode).toBe(200);
  });

  it('takes no more writes, and is not ready, once its file was removed under it', async () => {
    const { app, other, file } = await buildOnFile(1000);
    other.close();
    expect((await pay(app, '0712000005')).statusCode).toBe(200);
    for (const each of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(each, { force: true });
    // Before: answered 200, and the payment was gone at the next start.
    expectUnavailable(await pay(app, '0712000006'), 'a payment after the file was removed');
    const ready = await app.inject('/api/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'not ready', reason: FILE_GONE_MESSAGE });
  });

  it('waits for a lock let go of within DATABASE_BUSY_TIMEOUT_MS, and then saves the payment', async () => {
    const { app, other } = await buildOnFile(5000);
    other.exec('begin immediate');
    setTimeout(() => other.exec('rollback'), 300);
    const paid = await pay(app, '0712000004');
    expect(paid.statusCode, paid.body).toBe(200);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL that goes away', () => {
  let proxy: TcpProxy;
  let handle: DbHandle;
  /** The test's schema, reached straight rather than through the proxy. */
  let direct: TestDatabase;
  let app: FastifyInstance;
  let fake: FakeDaraja;
  let cleanup: () => Promise<void>;
  const lost: Error[] = [];

  afterEach(async () => {
    await app?.close();
    await fake?.close();
    await handle?.db.destroy();
    await proxy?.close();
    await cleanup?.();
    lost.length = 0;
  });

  /** The API on its own schema, reaching PostgreSQL through a proxy the test controls. */
  async function build() {
    const database = await createTestDatabase('postgres');
    direct = database;
    cleanup = () => database.destroy();
    const target = new URL(TEST_DATABASE_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const through = new URL(TEST_DATABASE_URL!);
    through.host = proxy.address;
    handle = createDb(through.toString(), {
      schema: database.schema!,
      poolSize: 3,
      timeouts: { connectMs: 500, statementMs: 800, busyMs: 0 },
      onConnectionError: (error) => lost.push(error),
    });
    fake = daraja = await startFakeDaraja({ kind: 'answer', status: 200, body: ackBody('ws_CO') });
    ({ app } = await createTestApp({
      database: { ...database, ...handle },
      env: { MPESA_BASE_URL: fake.url, PHONE_COOLDOWN_S: '0' },
    }));
    // Connections open and idle in the pool, as on any running server.
    expect((await pay(app, '0712000010')).statusCode).toBe(200);
    expect((await app.inject('/api/mpesa/transactions')).statusCode).toBe(200);
  }

  it('1: survives its idle connections being ended by the server, and opens new ones', async () => {
    await build();
    proxy.cutAll();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Today's main died here: "Unhandled 'error' event" from the pool.
    expect(lost.length).toBeGreaterThan(0);
    expect((await app.inject('/api/mpesa/transactions')).statusCode).toBe(200);
    expect((await pay(app, '0712000011')).statusCode).toBe(200);
  });

  it('2: answers 503 while PostgreSQL refuses connections, and carries on when it is back', async () => {
    await build();
    proxy.setMode('refuse');
    proxy.cutAll();
    await expectEveryRouteUnavailable(app);
    proxy.setMode('pass');
    expect((await pay(app, '0712000012')).statusCode).toBe(200);
    expect((await app.inject('/api/mpesa/summary')).statusCode).toBe(200);
  });

  it('2: answers 503 within the timeouts while PostgreSQL stops answering without closing, then recovers', async () => {
    await build();
    proxy.setMode('silent');
    const started = Date.now();
    const answers = await Promise.all([
      pay(app, '0712000013'),
      app.inject('/api/mpesa/transactions'),
      app.inject('/api/mpesa/transactions/anything'),
      deliver(app, successCallback('ws_CO_silent', { amount: 1, phoneNumber: '254712000013' })),
    ]);
    for (const answer of answers) expectUnavailable(answer, 'a request to a silent database');
    // The statement timeout (800 ms, plus a second's grace) or the connect timeout (500 ms), with room.
    expect(Date.now() - started).toBeLessThan(4000);
    proxy.setMode('pass');
    proxy.cutAll();
    expect((await app.inject('/api/mpesa/transactions')).statusCode).toBe(200);
    expect((await pay(app, '0712000014')).statusCode).toBe(200);
  });

  it('2: cuts an export short, so that the client sees it broken, when the database goes away while it streams', async () => {
    await build();
    // Seeded straight, not through the proxy and its 800 ms statement timeout, which 5,000 rows
    // can outlast on a busy machine.
    await seedDatabase(direct, {
      count: 5000,
      days: 7,
      seed: 19,
      now: new Date(),
      append: true,
      reconcile: { afterS: 90, maxBackoffS: 120, giveUpS: 600 },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const ending = await new Promise<string>((resolve) => {
      http.get(`http://127.0.0.1:${port}/api/mpesa/transactions/export`, (response) => {
        expect(response.statusCode).toBe(200);
        response.once('data', () => {
          proxy.setMode('refuse');
          proxy.cutAll();
        });
        response.on('data', () => {});
        response.on('end', () => resolve('ended as if whole'));
        response.on('aborted', () => resolve('cut short'));
        response.on('error', () => resolve('cut short'));
      });
    });
    expect(ending).toBe('cut short');
  });

  it('1: survives a connection ended in the middle of a transaction', async () => {
    await build();
    const failed = handle.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      proxy.cutAll();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await sql`select 1`.execute(trx);
    });
    await expect(failed).rejects.toSatisfy(isDatabaseUnavailable);
    expect((await app.inject('/api/mpesa/transactions')).statusCode).toBe(200);
  });

  it('1: survives pg_terminate_backend on every connection it holds (57P01)', async () => {
    await build();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      // This test's connections only: those that come through the proxy.
      const { rowCount } = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where pid <> pg_backend_pid() and client_port = any($1::int[])`,
        [proxy.serverSidePorts()],
      );
      expect(rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lost.some((error) => (error as { code?: string }).code === '57P01')).toBe(true);
    expect((await app.inject('/api/mpesa/transactions')).statusCode).toBe(200);
    expect((await pay(app, '0712000015')).statusCode).toBe(200);
  });
});

for (const dialect of DIALECTS) {
  describe(`7: a success callback with nothing to check (${dialect})`, () => {
    const world = useApiWithFakeDaraja(dialect);

    it('is flagged and not taken as paid; the STK query then settles the payment', async () => {
      const fake = await world.startFake({
        kind: 'answer',
        status: 200,
        body: ackBody('ws_CO_bare'),
      });
      await world.build(fake.url);
      const { transactionId } = (await world.pay()).json();
      const bare = {
        Body: {
          stkCallback: {
            MerchantRequestID: '29115-34620561-1',
            CheckoutRequestID: 'ws_CO_bare',
            ResultCode: 0,
            ResultDesc: 'The service request is processed successfully.',
          },
        },
      };
      expect((await world.deliver(bare)).statusCode).toBe(200);
      expect(await world.row(transactionId)).toMatchObject({
        status: 'pending',
        flagged_reason:
          'M-PESA reported success with no amount, phone number or receipt to check it against',
      });
      expect(await world.outcomes()).toEqual(['mismatch']);

      // Daraja's own answer decides it.
      fake.behaviour = {
        kind: 'answer',
        status: 200,
        body: JSON.stringify({
          ResponseCode: '0',
          ResponseDescription: 'The service request has been accepted successsfully',
          MerchantRequestID: '29115-34620561-1',
          CheckoutRequestID: 'ws_CO_bare',
          ResultCode: '1032',
          ResultDesc: 'Request cancelled by user',
        }),
      };
      world.clock += 120_000;
      await world.reconcile();
      expect(await world.row(transactionId)).toMatchObject({ status: 'cancelled' });
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`3: an Idempotency-Key its request could not free (${dialect})`, () => {
    const world = useApiWithFakeDaraja(dialect);
    const payWithKey = (key: string) =>
      world.app.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        headers: { 'idempotency-key': key },
        payload: { phoneNumber: '0712345678', amount: 100 },
      });
    /**
     * A key as a request left it when the database failed it before any answer was stored: taken
     * `agoMs` ago for this body, naming `transactionId` or no payment. (The phone is freed, as the
     * failed request would have left it.)
     */
    const leftTaken = async (key: string, agoMs: number, transactionId: string | null) => {
      expect((await payWithKey(key)).statusCode).toBe(200);
      const { db } = world.database;
      const { request_hash } = await db
        .selectFrom('idempotency_keys')
        .select('request_hash')
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      await db.deleteFrom('idempotency_keys').where('key', '=', key).execute();
      await db.deleteFrom('phone_locks').execute();
      const at = new Date(world.clock - agoMs);
      await db
        .insertInto('idempotency_keys')
        .values({
          key,
          request_hash,
          transaction_id: transactionId,
          status_code: null,
          response_body: null,
          created_at: at.toISOString(),
          expires_at: new Date(at.getTime() + 24 * 3600_000).toISOString(),
        })
        .execute();
    };

    it('is free again once its request is long over, when it names no saved payment', async () => {
      const fake = await world.startFake({
        kind: 'answer',
        status: 200,
        body: ackBody('ws_CO_k1'),
      });
      await world.build(fake.url, { PHONE_COOLDOWN_S: '0' });
      await leftTaken('left-by-an-outage', 10 * 60_000, null);
      fake.behaviour = { kind: 'answer', status: 200, body: ackBody('ws_CO_k2') };
      const again = await payWithKey('left-by-an-outage');
      expect(again.statusCode, again.body).toBe(200);
      // Before the fix: 409 "still being processed" for 24 hours, with no payment behind it.
    });

    it('stays taken while its request may still be under way, or once it names a saved payment', async () => {
      const fake = await world.startFake({
        kind: 'answer',
        status: 200,
        body: ackBody('ws_CO_k3'),
      });
      await world.build(fake.url, { PHONE_COOLDOWN_S: '0' });
      await leftTaken('just-taken', 1000, null);
      expect((await payWithKey('just-taken')).json()).toMatchObject({
        code: 'IDEMPOTENCY_KEY_IN_USE',
      });
      const { id } = await world.database.db
        .selectFrom('transactions')
        .select('id')
        .executeTakeFirstOrThrow();
      fake.behaviour = { kind: 'answer', status: 200, body: ackBody('ws_CO_k5') };
      await leftTaken('saved-a-payment', 10 * 60_000, id);
      await world.database.db.deleteFrom('phone_locks').execute();
      expect((await payWithKey('saved-a-payment')).json()).toMatchObject({
        code: 'IDEMPOTENCY_KEY_IN_USE',
      });
    });

    it('names the payment saved under it in the commit that saves it', async () => {
      const fake = await world.startFake({
        kind: 'answer',
        status: 200,
        body: ackBody('ws_CO_k4'),
      });
      await world.build(fake.url);
      const { transactionId } = (await payWithKey('named')).json();
      expect(
        await world.database.db
          .selectFrom('idempotency_keys')
          .select('transaction_id')
          .where('key', '=', 'named')
          .executeTakeFirstOrThrow(),
      ).toEqual({ transaction_id: transactionId });
    });
  });
}
