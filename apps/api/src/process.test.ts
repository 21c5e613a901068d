/**
 * The API as a process: killed with SIGKILL in the middle of a burst of payments and callbacks,
 * then restarted, every payment that was acknowledged still exists and ends in the right state;
 * killed between saving payments and storing Daraja's acknowledgements, no payer whose money moved
 * is labelled unpaid; and SIGTERM lets in-flight requests finish.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from './test/simulator.ts';
import { freePort, startApiProcess, type ApiProcess } from './test/api-process.ts';
import { startFakeDaraja } from './test/fake-daraja.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from './test/test-db.ts';

for (const dialect of DIALECTS) {
  describe(`the API process (${dialect})`, () => {
    let simulator: RunningSimulator;
    let dataDir: string;

    const databases: TestDatabase[] = [];

    beforeAll(async () => {
      simulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '400' });
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-process-'));
    });
    afterAll(async () => {
      await simulator.close();
      for (const database of databases) await database.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    /** Where a process keeps its data: an SQLite file, or its own PostgreSQL schema. */
    async function databaseEnv(name: string): Promise<Record<string, string>> {
      if (dialect === 'sqlite') return { DATABASE_URL: path.join(dataDir, `${name}.sqlite`) };
      const database = await createTestDatabase('postgres');
      databases.push(database);
      return { DATABASE_URL: database.url, DATABASE_SCHEMA: database.schema! };
    }

    it('survives SIGKILL in the middle of a burst: every acknowledged payment exists and ends right', async () => {
      const port = await freePort();
      const env = {
        DATA_DIR: dataDir,
        ...(await databaseEnv('crash')),
        MPESA_BASE_URL: simulator.url,
        MPESA_CALLBACK_SECRET: 'crash-test-secret-0123456789',
        RECONCILE_AFTER_S: '1',
        RECONCILE_INTERVAL_MS: '200',
        RECONCILE_MAX_BACKOFF_S: '1',
        // A payment the killed process had claimed for a check stays its own for the lease,
        // 4 × DARAJA_TIMEOUT_MS + 10 s (70 s by default), before the new process may ask about
        // it; on a busy machine the burst lasts long enough for some to be claimed before the kill.
        DARAJA_TIMEOUT_MS: '5000',
        STKPUSH_RATE_LIMIT: '0',
      };
      let api: ApiProcess = await startApiProcess(env, port);

      // 40 payers, each forced to pay (0) or cancel (1032).
      const payers = Array.from({ length: 40 }, (_, i) => {
        const phone = `2547110${String(i).padStart(5, '0')}`;
        const resultCode = i % 3 === 0 ? '1032' : '0';
        simulator.prompts.setNext(phone, { outcome: { kind: 'result', resultCode } });
        return { phone, expected: resultCode === '0' ? 'success' : 'cancelled' };
      });

      const acknowledged = new Map<string, string>(); // transactionId → expected status
      const send = async ({ phone, expected }: (typeof payers)[number]) => {
        try {
          const response = await fetch(`${api.url}/api/mpesa/stkpush`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ phoneNumber: `0${phone.slice(3)}`, amount: 10 }),
          });
          if (response.ok) acknowledged.set((await response.json()).transactionId, expected);
        } catch {
          // the server died under this request: no promise was made to this payer
        }
      };

      const burst = payers.map(async (payer, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 25));
        await send(payer);
      });
      // Kill it while payments are still arriving and the first callbacks are being delivered:
      // once eight are acknowledged (counted, not timed: a busy machine acknowledges fewer in
      // the same half second).
      const killBy = Date.now() + 20_000;
      while (acknowledged.size < 8 && Date.now() < killBy) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      api.child.kill('SIGKILL');
      await api.exited;
      await Promise.all(burst);
      expect(acknowledged.size).toBeGreaterThanOrEqual(8);
      expect(acknowledged.size).toBeLessThan(payers.length);
      // Some callbacks were lost with the server: only reconciliation can recover those payments.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(
        simulator.log
          .list({ kind: 'callback' })
          .some((entry) => entry.kind === 'callback' && entry.error),
      ).toBe(true);

      api = await startApiProcess(env, port);
      try {
        // The lease (30 s) and then a check each: 45 s.
        const deadline = Date.now() + 45_000;
        let unresolved: string[] = [];
        do {
          await new Promise((resolve) => setTimeout(resolve, 300));
          unresolved = [];
          for (const [id, expected] of acknowledged) {
            const response = await fetch(`${api.url}/api/mpesa/transactions/${id}`);
            expect(response.status).toBe(200);
            const { data } = await response.json();
            if (data.status !== expected)
              unresolved.push(`${id}: ${data.status}, expected ${expected}`);
          }
        } while (unresolved.length > 0 && Date.now() < deadline);
        expect(unresolved).toEqual([]);
      } finally {
        api.child.kill('SIGTERM');
        await api.exited;
      }
    }, 120_000);

    it('labels no payer unpaid whose money moved, when killed between saving payments and storing their acknowledgements', async () => {
      // Daraja takes the pushes and the payers answer a second later, but Daraja's
      // acknowledgements reach the API only after it has been killed, half a second in; the
      // callbacks then find it down.
      const daraja = await startSimulator({ SIM_CALLBACK_DELAY_MS: '1000' });
      const slowAcks = await startDelayingProxy(daraja.url, '/mpesa/stkpush/', 2000);
      const port = await freePort();
      const env = {
        DATA_DIR: dataDir,
        ...(await databaseEnv('unacknowledged')),
        MPESA_BASE_URL: slowAcks.url,
        MPESA_CALLBACK_SECRET: 'unacknowledged-test-secret-0123456789',
        DARAJA_TIMEOUT_MS: '5000',
        RECONCILE_AFTER_S: '1',
        RECONCILE_INTERVAL_MS: '200',
        RECONCILE_MAX_BACKOFF_S: '1',
        RECONCILE_GIVE_UP_S: '4',
        STKPUSH_RATE_LIMIT: '0',
      };
      let api: ApiProcess = await startApiProcess(env, port);

      const payers = Array.from({ length: 12 }, (_, i) => {
        const phone = `2547120${String(i).padStart(5, '0')}`;
        const resultCode = i % 3 === 0 ? '1032' : '0';
        daraja.prompts.setNext(phone, { outcome: { kind: 'result', resultCode } });
        return { phone, paid: resultCode === '0' };
      });
      const burst = payers.map(({ phone }) =>
        fetch(`${api.url}/api/mpesa/stkpush`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ phoneNumber: `0${phone.slice(3)}`, amount: 10 }),
        }).catch(() => undefined),
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      api.child.kill('SIGKILL');
      await api.exited;
      await Promise.all(burst);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const lostCallbacks = daraja.log
        .list({ kind: 'callback' })
        .filter((entry) => entry.kind === 'callback' && entry.error);
      expect(lostCallbacks.length).toBeGreaterThan(0);

      // An unacknowledged push is given up once it can no longer be answered: 4 Daraja timeouts and
      // 10 s after it started (the reconciliation lease). The restarted process's short timeout
      // brings that to 14 s; the simulator answers its queries at once.
      api = await startApiProcess(
        { ...env, MPESA_BASE_URL: daraja.url, DARAJA_TIMEOUT_MS: '1000' },
        port,
      );
      try {
        const deadline = Date.now() + 30_000;
        let rows: { phoneNumber: string; status: string; responseDescription: string | null }[] =
          [];
        do {
          await new Promise((resolve) => setTimeout(resolve, 300));
          rows = (await (await fetch(`${api.url}/api/mpesa/transactions?limit=100`)).json()).data;
        } while (rows.some((row) => row.status === 'pending') && Date.now() < deadline);
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.filter((row) => row.status === 'pending')).toEqual([]);

        const paidPhones = new Set(payers.filter((p) => p.paid).map((p) => p.phone));
        const unpaidLabels = new Set(['failed', 'cancelled', 'timeout']);
        const mislabelled = rows.filter(
          (row) => paidPhones.has(row.phoneNumber) && unpaidLabels.has(row.status),
        );
        expect(mislabelled).toEqual([]);
        const unknown = rows.filter((row) => row.status === 'unknown');
        expect(unknown.length).toBeGreaterThan(0);
        for (const row of unknown) {
          expect(row.responseDescription).toMatch(/check the M-PESA statement/);
        }
      } finally {
        api.child.kill('SIGTERM');
        await api.exited;
        await slowAcks.close();
        await daraja.close();
      }
    });

    it('finishes in-flight requests on SIGTERM before it exits', async () => {
      const slow = await startFakeDaraja({
        kind: 'answer',
        status: 200,
        body: JSON.stringify({
          MerchantRequestID: 'm-1',
          CheckoutRequestID: 'ws_CO_slow',
          ResponseCode: '0',
          ResponseDescription: 'Success. Request accepted for processing',
          CustomerMessage: 'Success. Request accepted for processing',
        }),
        delayMs: 600,
      });
      const port = await freePort();
      const api = await startApiProcess(
        {
          DATA_DIR: dataDir,
          ...(await databaseEnv('shutdown')),
          MPESA_BASE_URL: slow.url,
          MPESA_CALLBACK_SECRET: 'shutdown-test-secret-0123456789',
        },
        port,
      );
      try {
        const payment = fetch(`${api.url}/api/mpesa/stkpush`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ phoneNumber: '0712345678', amount: 10 }),
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        api.child.kill('SIGTERM');
        const response = await payment;
        expect(response.status).toBe(200);
        expect((await response.json()).checkoutRequestId).toBe('ws_CO_slow');
        expect(await api.exited).toBe(0);
      } finally {
        if (api.child.exitCode === null) api.child.kill('SIGKILL');
        await slow.close();
      }
    });
  });
}

/** Forwards everything to `target`, holding back the answers to paths containing `slowPath`. */
async function startDelayingProxy(target: string, slowPath: string, delayMs: number) {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      try {
        const answer = await fetch(`${target}${request.url}`, {
          method: request.method ?? 'GET',
          headers: { ...(request.headers as Record<string, string>), host: new URL(target).host },
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        const body = Buffer.from(await answer.arrayBuffer());
        if (request.url?.includes(slowPath)) await new Promise((r) => setTimeout(r, delayMs));
        response.writeHead(answer.status, {
          'Content-Type': answer.headers.get('content-type') ?? '',
        });
        response.end(body);
      } catch {
        response.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
