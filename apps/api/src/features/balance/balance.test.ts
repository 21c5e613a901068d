/**
 * The balance against the simulator, on both databases: asked on demand, its accounts read to the
 * cent as the simulator's ledger holds them; the day's payouts and their charges beside the change
 * in balance, which they make exactly; who may ask.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackUrls } from '../../callbacks/callback-paths.ts';
import { createDarajaClient } from '../../daraja/daraja-client.ts';
import { addOperator } from '../operators/operators.service.ts';
import { CALLBACK_ROUTES } from '../index.ts';
import { addStaff, PASSWORD, send, signedIn, STAFF } from '../../test/operator-session.ts';
import { freePort } from '../../test/ports.ts';
import { startSimulator, type RunningSimulator } from '../../test/simulator.ts';
import {
  createTestApp,
  TEST_CALLBACK_SECRET,
  TEST_PASSWORD_HASH_COST,
} from '../../test/test-app.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/test-db.ts';
import { payoutDepsFor } from '../payouts/index.ts';
import { recoverDuePayouts } from '../payouts/payout-recovery.ts';
import { silentLog } from '../../test/silent-log.ts';

for (const dialect of DIALECTS) {
  describe(`the balance (${dialect})`, () => {
    let simulator: RunningSimulator;
    let database: TestDatabase;
    let app: FastifyInstance;
    let config: Awaited<ReturnType<typeof createTestApp>>['config'];
    let owner: string;
    let cashier: string;

    beforeAll(async () => {
      simulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '50' });
      database = await createTestDatabase(dialect);
      await addStaff(database, new Date());
      await addOperator(database.db, {
        name: 'Wanjiru',
        role: 'owner',
        password: PASSWORD,
        now: new Date(),
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      });
      const port = await freePort();
      ({ app, config } = await createTestApp({
        database,
        env: {
          MPESA_BASE_URL: simulator.url,
          PORT: String(port),
          MPESA_CALLBACK_URL: `http://127.0.0.1:${port}`,
          HISTORY_ACCESS: 'operators',
        },
      }));
      await app.listen({ host: '127.0.0.1', port });
      owner = await signedIn(app, 'Wanjiru');
      cashier = await signedIn(app, STAFF.cashier);
    });
    afterAll(async () => {
      await app.close();
      await simulator.close();
      await database.destroy();
    });

    const balance = async () =>
      (await send(app, { method: 'GET', url: '/api/balance' }, cashier)).json().data;
    async function readNow() {
      const asked = await send(app, { method: 'POST', url: '/api/balance/read' }, cashier);
      expect(asked.statusCode).toBe(202);
      const id = asked.json().data.id;
      await expect
        .poll(async () => (await balance()).latest?.id === id && (await balance()).latest.status)
        .toBe('read');
      return (await balance()).latest;
    }
    const ledgerTotal = () =>
      Object.values(simulator.ledger.shortcode(config.payouts.shortcode).accounts).reduce(
        (sum: number, cents) => sum + (cents ?? 0),
        0,
      ) / 100;

    it('reads the shortcode’s accounts to the cent, with when it was asked and read', async () => {
      const reading = await readNow();
      expect(reading.accounts.map((each: { name: string }) => each.name)).toEqual([
        'Working Account',
        'Float Account',
        'Utility Account',
        'Charges Paid Account',
        'Organization Settlement Account',
      ]);
      expect(reading.total).toBe(ledgerTotal());
      expect(reading.readAt).toEqual(expect.any(String));
      expect(reading.askedBy).toBe(STAFF.cashier);
    });

    it('a reading asked after one was read is shown as awaited beside it, then replaces it', async () => {
      const first = await readNow();
      const asked = await send(app, { method: 'POST', url: '/api/balance/read' }, cashier);
      const id = asked.json().data.id;
      const meanwhile = await balance();
      // What M-PESA last said stays; the new asking is there beside it, awaited or answered.
      if (meanwhile.newer !== null) {
        expect(meanwhile.latest.id).toBe(first.id);
        expect(meanwhile.newer).toMatchObject({ id, status: 'asked' });
      } else {
        expect(meanwhile.latest.id).toBe(id);
      }
      await expect.poll(async () => (await balance()).latest.id).toBe(id);
      expect((await balance()).newer).toBeNull();
    });

    it('the day’s payments, payouts and charges make the change in balance exactly', async () => {
      const first = await readNow();
      // A payment received by prompt, into the same shortcode's utility account.
      const pushed = await app.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        payload: { phoneNumber: '0700000000', amount: 50 },
      });
      const paymentId = pushed.json().transactionId;
      await expect
        .poll(
          async () =>
            (
              await send(app, { method: 'GET', url: `/api/mpesa/transactions/${paymentId}` }, owner)
            ).json().data.status,
        )
        .toBe('success');
      const batch = await send(
        app,
        {
          method: 'POST',
          url: '/api/payouts/batches',
          payload: {
            csv: 'to,amount,reason\n0708374149,1500,Wages\n0705912645,800,Rider\n600000,2000,Stock',
          },
        },
        cashier,
      );
      const { batchId, payouts } = batch.json().data;
      await send(app, { method: 'POST', url: `/api/payouts/batches/${batchId}/approve` }, owner);
      for (const payout of payouts) {
        await expect
          .poll(
            async () =>
              (await send(app, { method: 'GET', url: `/api/payouts/${payout.id}` }, owner)).json()
                .data.status,
          )
          .toBe('succeeded');
      }
      // The charges of the payouts to phones, asked by transaction status.
      const deps = payoutDepsFor({
        config,
        database,
        now: () => new Date(Date.now() + 3600_000),
        log: silentLog,
        money: createDarajaClient({ ...config.mpesa, initiator: config.refunds.initiator }),
        callbackUrlFor: callbackUrls(
          CALLBACK_ROUTES,
          config.mpesa.callbackBaseUrl,
          TEST_CALLBACK_SECRET,
        ),
      });
      await recoverDuePayouts({ ...deps, instanceId: 'test' });
      await expect
        .poll(async () => {
          const rows = await database.db.selectFrom('payouts').select('charge_cents').execute();
          return rows.every((row) => row.charge_cents !== null);
        })
        .toBe(true);
      const last = await readNow();
      expect(last.total - first.total).toBeCloseTo(50 - 4300 - 44.8, 2);
      const { day } = await balance();
      expect(day).toMatchObject({
        moneyIn: 50,
        moneyOut: 4300,
        fees: 44.8,
        change: -4294.8,
        expectedChange: -4294.8,
        agrees: true,
      });
    });

    it('a viewer sees the balance and cannot ask; a stranger neither', async () => {
      const viewer = await signedIn(app, STAFF.viewer);
      expect((await send(app, { method: 'GET', url: '/api/balance' }, viewer)).statusCode).toBe(
        200,
      );
      const asked = await send(app, { method: 'POST', url: '/api/balance/read' }, viewer);
      expect([asked.statusCode, asked.json().code]).toEqual([403, 'ROLE_NOT_ALLOWED']);
      expect((await send(app, { method: 'GET', url: '/api/balance' }, undefined)).statusCode).toBe(
        401,
      );
      expect(owner).toEqual(expect.any(String));
    });
  });
}
