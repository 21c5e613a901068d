/**
 * What the first attack on the running app found about money, each on SQLite and PostgreSQL:
 * identifiers longer than we store, a payment whose acknowledgement was lost, flags that only a
 * person clears, schedules that follow the settings in force, and the give-up text.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { DIALECTS } from '../test/test-db.ts';
import { testConfig } from '../test/test-app.ts';
import { ackBody as ack, type FakeDaraja } from '../test/fake-daraja.ts';
import { useApiWithFakeDaraja } from '../test/fake-daraja-world.ts';
import { startSimulator, type RunningSimulator } from '../test/simulator.ts';
import { failureCallback, successCallback } from '../test/callbacks.ts';
import { createDarajaClient } from '../daraja/daraja-client.ts';
import { startReconciler } from '../features/reconciliation/reconciler.ts';
import { paymentWritesFor } from '../features/payments/index.ts';

const silent = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;

for (const dialect of DIALECTS) {
  describe(`money under attack (${dialect})`, () => {
    const world = useApiWithFakeDaraja(dialect);
    const { build, pay, deliver, row, reconcile } = world;
    let fake: FakeDaraja;
    let simulator: RunningSimulator | undefined;
    afterEach(async () => {
      await simulator?.close();
      simulator = undefined;
    });
    const callbacks = () =>
      world.database.db.selectFrom('callbacks').selectAll().orderBy('id').execute();

    describe('2: identifiers longer than we store', () => {
      it('records a callback with a 150-character CheckoutRequestID instead of failing', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_long') });
        await build(fake.url);
        const body = JSON.stringify(failureCallback(`ws_CO_${'9'.repeat(144)}`, 1032, 'x'));
        const answer = await deliver(body);
        expect(answer.statusCode).toBeLessThan(500);
        expect(await callbacks()).toMatchObject([{ raw_body: body, outcome: 'invalid' }]);
      });

      it('records a success callback with a 40-character receipt: the payment is paid, without the receipt, and flagged', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_receipt') });
        await build(fake.url);
        const { transactionId } = (await pay()).json();
        const body = JSON.stringify(
          successCallback('ws_CO_receipt', {
            amount: 100,
            phoneNumber: '254712345678',
            receipt: 'R'.repeat(40),
          }),
        );
        expect((await deliver(body)).statusCode).toBeLessThan(500);
        expect(await callbacks()).toMatchObject([{ raw_body: body, outcome: 'applied' }]);
        // The money moved: refusing the callback would leave the payment to an STK query, which the
        // sandbox is known to answer with a failure for paid payments (docs/daraja-protocol.md §5).
        expect(await row(transactionId)).toMatchObject({
          status: 'success',
          mpesa_receipt_number: null,
          flagged_reason:
            'M-PESA sent a receipt longer than 32 characters; it is in the callback as received',
        });
      });

      it('keeps a push whose acknowledgement carries a 150-character CheckoutRequestID pending, not 500', async () => {
        fake = await world.startFake({
          kind: 'answer',
          status: 200,
          body: ack(`ws_CO_${'1'.repeat(144)}`),
        });
        await build(fake.url);
        const answer = await pay();
        expect(answer.json()).toMatchObject({ code: 'MPESA_NO_ANSWER' });
        const [only] = await world.database.db.selectFrom('transactions').selectAll().execute();
        expect(only).toMatchObject({ status: 'pending', checkout_request_id: null });
      });
    });

    describe('3: a payment whose acknowledgement was never stored', () => {
      it('is never labelled unpaid: it becomes unknown with what to check, and a late callback settles it', async () => {
        fake = await world.startFake({ kind: 'hang' });
        await build(fake.url, { RECONCILE_GIVE_UP_S: '600' });
        expect((await pay('0712345678', 250)).statusCode).toBe(504);
        const { id } = await world.database.db
          .selectFrom('transactions')
          .select('id')
          .executeTakeFirstOrThrow();

        world.clock += 100_000;
        await reconcile();
        expect((await row(id)).status).toBe('pending');
        world.clock += 600_000;
        await reconcile();
        expect(await row(id)).toMatchObject({
          status: 'unknown',
          response_description:
            'M-PESA never confirmed the payment request within 10 minutes. Whether the payer ' +
            'paid is not known: check the M-PESA statement for a payment of 250 KES from this ' +
            'phone number before asking for the money again.',
        });

        // The payer had paid after all: a success for that phone and amount is this payment.
        world.clock += 60_000;
        await deliver(successCallback('ws_CO_late', { amount: 250, phoneNumber: '254712345678' }));
        expect(await row(id)).toMatchObject({
          status: 'success',
          checkout_request_id: 'ws_CO_late',
          mpesa_receipt_number: 'UF1E26WQJZ',
        });
      });

      it('holds the phone only for PHONE_COOLDOWN_S, and says why while it does', async () => {
        fake = await world.startFake({ kind: 'hang' });
        await build(fake.url, { PHONE_COOLDOWN_S: '60' });
        expect((await pay()).statusCode).toBe(504);

        world.clock += 20_000;
        const held = await pay();
        expect(held.statusCode).toBe(429);
        expect(held.json()).toEqual({
          success: false,
          code: 'PHONE_BUSY',
          message:
            'The last payment request to this phone was not confirmed by M-PESA, so it may still ' +
            'arrive or may already have been paid. Check the phone for a prompt or an M-PESA ' +
            'message before paying again. A new request can be sent in 40 seconds.',
        });
        expect(held.headers['retry-after']).toBe('40');

        world.clock += 41_000;
        expect((await pay()).statusCode).toBe(504); // a new push was sent
        expect(fake.pushes).toBe(2);
      });

      it('still holds the phone while a push is on its way, even with PHONE_COOLDOWN_S=0', async () => {
        fake = await world.startFake({ kind: 'hang' });
        await build(fake.url, { PHONE_COOLDOWN_S: '0', DARAJA_TIMEOUT_MS: '1500' });
        const first = pay();
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect((await pay()).statusCode).toBe(429);
        expect((await first).statusCode).toBe(504);
      });
    });

    // A person clearing a flag (npm run review) is in lifecycle-attacks.test.ts and review-cli.test.ts.
    describe('4: flagged for review until a person clears it', () => {
      it('keeps a flagged amount mismatch flagged when a matching success follows', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_flag') });
        await build(fake.url);
        const { transactionId } = (await pay()).json();
        await deliver(successCallback('ws_CO_flag', { amount: 1, phoneNumber: '254712345678' }));
        await deliver(
          successCallback('ws_CO_flag', {
            amount: 100,
            phoneNumber: '254712345678',
            receipt: 'UF1E26WQJY',
          }),
        );
        expect(await row(transactionId)).toMatchObject({
          status: 'failed',
          flagged_reason: 'M-PESA reported 1 KES, not 100 KES',
          mpesa_receipt_number: null,
        });
        expect((await callbacks()).map((callback) => callback.outcome)).toEqual([
          'mismatch',
          'ignored',
        ]);
      });

      it('lifts a cancellation to success when M-PESA then reports the money moved, and flags it', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_lift') });
        await build(fake.url);
        const { transactionId } = (await pay()).json();
        await deliver(failureCallback('ws_CO_lift', 1032, 'Request Cancelled by user.'));
        await deliver(successCallback('ws_CO_lift', { amount: 100, phoneNumber: '254712345678' }));
        expect(await row(transactionId)).toMatchObject({
          status: 'success',
          mpesa_receipt_number: 'UF1E26WQJZ',
          flagged_reason:
            'M-PESA sent contradicting results for this request: 1032 (cancelled), then 0 (success)',
        });
      });

      it('flags a second receipt for a paid request, and keeps the first', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_two') });
        await build(fake.url);
        const { transactionId } = (await pay()).json();
        await deliver(successCallback('ws_CO_two', { amount: 100, phoneNumber: '254712345678' }));
        await deliver(
          successCallback('ws_CO_two', {
            amount: 100,
            phoneNumber: '254712345678',
            receipt: 'UF1E26WQJY',
          }),
        );
        expect(await row(transactionId)).toMatchObject({
          status: 'success',
          mpesa_receipt_number: 'UF1E26WQJZ',
          flagged_reason: 'M-PESA sent two receipts for this request: UF1E26WQJZ, then UF1E26WQJY',
        });
        expect((await callbacks()).map((callback) => callback.outcome)).toEqual([
          'applied',
          'contradiction',
        ]);
      });
    });

    describe('9: the give-up text', () => {
      it('says "within 1 minute", not "within 1 minutes"', async () => {
        fake = await world.startFake({ kind: 'hang' });
        const env = { RECONCILE_AFTER_S: '30', RECONCILE_GIVE_UP_S: '60' };
        await build(fake.url, env);
        await pay();
        world.clock += 61_000;
        await reconcile(env);
        const [only] = await world.database.db.selectFrom('transactions').selectAll().execute();
        expect(only?.response_description).toMatch(
          /^M-PESA never confirmed the payment request within 1 minute\. /,
        );
      });
    });

    describe('10: schedules follow the settings in force', () => {
      it('brings forward a waiting payment when RECONCILE_AFTER_S is lowered and the app restarts', async () => {
        simulator = await startSimulator();
        simulator.prompts.setNext('254712345678', { outcome: { kind: 'manual' } });
        world.clock = Date.now();
        await build(simulator.url, { RECONCILE_AFTER_S: '90' });
        const { transactionId } = (await pay()).json();
        await world.app.close();

        // Restarted with a shorter wait: the payment is checked within a second or two, not in 90 s.
        const config = testConfig({
          MPESA_BASE_URL: simulator.url,
          RECONCILE_AFTER_S: '1',
          RECONCILE_INTERVAL_MS: '50',
        });
        const reconciler = startReconciler({
          db: world.database.db,
          dialect: world.database.dialect,
          writes: paymentWritesFor(world.database.dialect),
          daraja: createDarajaClient({ ...config.mpesa, initiator: config.refunds.initiator }),
          callbackUrl: 'unused',
          log: silent,
          now: () => new Date(Date.now() + 1500),
          phoneCooldownS: config.limits.phoneCooldownS,
          reconcileAfterS: config.reconcile.afterS,
          pushDeadlineMs: config.reconcile.leaseMs,
          settings: config.reconcile,
        });
        try {
          const deadline = Date.now() + 5000;
          while (Number((await row(transactionId)).check_attempts) === 0 && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          expect(Number((await row(transactionId)).check_attempts)).toBeGreaterThan(0);
        } finally {
          await reconciler.stop();
        }
      });
    });
  });
}
