/**
 * The API as a process: killed with SIGKILL in the middle of a burst of payments and callbacks,
 * then restarted, every payment that was acknowledged still exists and ends in the right state; and
 * SIGTERM lets in-flight requests finish.
 */
import fs from 'node:fs';
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
      // Kill it while payments are still arriving and the first callbacks are being delivered.
      await new Promise((resolve) => setTimeout(resolve, 550));
      api.child.kill('SIGKILL');
      await api.exited;
      await Promise.all(burst);
      expect(acknowledged.size).toBeGreaterThan(5);
      // Some callbacks were lost with the server: only reconciliation can recover those payments.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(
        simulator.log
          .list({ kind: 'callback' })
          .some((entry) => entry.kind === 'callback' && entry.error),
      ).toBe(true);

      api = await startApiProcess(env, port);
      try {
        const deadline = Date.now() + 30_000;
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
    }, 60_000);

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
    }, 30_000);
  });
}
