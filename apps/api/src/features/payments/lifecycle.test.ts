/**
 * The payment lifecycle under faults: callbacks in any order, the state machine's event log,
 * reconciliation of lost callbacks, idempotent initiation, and the limits that stop prompt bombing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/test-db.ts';
import { CALLBACK_PATH } from '../../test/test-app.ts';
import { useApiWithSimulator } from '../../test/world.ts';
import { failureCallback, successCallback } from '../../test/callbacks.ts';
import { reconcileOnce } from '../../test/reconcile.ts';

for (const dialect of DIALECTS) {
  describe(`the payment lifecycle (${dialect})`, () => {
    /** The time the API and the reconciler both see; tests move it. */
    let clock = Date.now();
    const world = useApiWithSimulator(dialect, { now: () => new Date(clock) });
    beforeEach(() => {
      clock = Date.now();
    });

    const pay = (payload: object, headers: Record<string, string> = {}) =>
      world.app.inject({ method: 'POST', url: '/api/mpesa/stkpush', payload, headers });
    const deliver = (payload: unknown) =>
      world.app.inject({
        method: 'POST',
        url: CALLBACK_PATH,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    const transaction = async (id: string) =>
      (await world.app.inject({ url: `/api/mpesa/transactions/${id}` })).json().data;
    const events = (id: string) =>
      world.database.db
        .selectFrom('transaction_events')
        .select(['source', 'from_status', 'to_status', 'note'])
        .where('transaction_id', '=', id)
        .orderBy('at')
        .orderBy('id')
        .execute();

    /** Reconciliation as one instance would run it, with the clock the test moves. */
    const reconcile = () =>
      reconcileOnce(world.database, { darajaUrl: world.simulator.url, now: () => new Date(clock) });

    describe('callbacks in any order', () => {
      it('records every change of status as an event, from initiation to callback', async () => {
        const { transactionId, checkoutRequestId } = (
          await pay({ phoneNumber: '0712345678', amount: 450 })
        ).json();
        await deliver(
          successCallback(checkoutRequestId, { amount: 450, phoneNumber: '254712345678' }),
        );
        expect(await events(transactionId)).toEqual([
          {
            source: 'initiation',
            from_status: null,
            to_status: 'pending',
            note: 'saved before the STK push',
          },
          {
            source: 'initiation',
            from_status: 'pending',
            to_status: 'pending',
            note: 'accepted by M-PESA',
          },
          { source: 'callback', from_status: 'pending', to_status: 'success', note: null },
        ]);
      });

      it('keeps the first final outcome when a different failure arrives later', async () => {
        const { transactionId, checkoutRequestId } = (
          await pay({ phoneNumber: '0712345678', amount: 9 })
        ).json();
        await deliver(failureCallback(checkoutRequestId, 1032, 'Request Cancelled by user.'));
        await deliver(
          failureCallback(checkoutRequestId, 1037, 'DS timeout user cannot be reached.'),
        );
        expect(await transaction(transactionId)).toMatchObject({
          status: 'cancelled',
          resultCode: '1032',
        });
      });

      it('lets a success lift an earlier failure, because the money moved, and flags the contradiction', async () => {
        const { transactionId, checkoutRequestId } = (
          await pay({ phoneNumber: '0712345678', amount: 9 })
        ).json();
        await deliver(
          failureCallback(checkoutRequestId, 1, 'The balance is insufficient for the transaction.'),
        );
        await deliver(
          successCallback(checkoutRequestId, { amount: 9, phoneNumber: '254712345678' }),
        );
        expect(await transaction(transactionId)).toMatchObject({
          status: 'success',
          mpesaReceiptNumber: 'UF1E26WQJZ',
        });
        const contradiction =
          'M-PESA sent contradicting results for this request: 1 (failed), then 0 (success)';
        expect((await events(transactionId)).at(-1)).toMatchObject({
          from_status: 'failed',
          to_status: 'success',
          note: `late callback success lifted failed; flagged: ${contradiction}`,
        });
        const { flagged_reason } = await world.database.db
          .selectFrom('transactions')
          .select('flagged_reason')
          .where('id', '=', transactionId)
          .executeTakeFirstOrThrow();
        expect(flagged_reason).toBe(contradiction);
      });

      it('holds a success whose amount does not match as failed, flagged for review, and never as success', async () => {
        const { transactionId, checkoutRequestId } = (
          await pay({ phoneNumber: '0712345678', amount: 450 })
        ).json();
        await deliver(
          successCallback(checkoutRequestId, { amount: 45, phoneNumber: '254712345678' }),
        );
        expect(await transaction(transactionId)).toMatchObject({
          status: 'failed',
          responseDescription: 'Held for review: M-PESA reported 45 KES, not 450 KES.',
        });
        // Reconciliation leaves it alone, and a duplicate of the bad callback changes nothing.
        clock += 3600_000;
        expect(await reconcile()).toBe(0);
        await deliver(
          successCallback(checkoutRequestId, { amount: 45, phoneNumber: '254712345678' }),
        );
        expect((await transaction(transactionId)).status).toBe('failed');
      });
    });

    describe('reconciliation', () => {
      it('recovers a payment whose callback never comes (0700009999) as success', async () => {
        const { transactionId } = (await pay({ phoneNumber: '0700009999', amount: 30 })).json();
        await new Promise((resolve) => setTimeout(resolve, 150)); // the simulator settles it after 50 ms
        expect(await reconcile()).toBe(0); // not due before RECONCILE_AFTER_S
        clock += 91_000;
        expect(await reconcile()).toBe(1);
        expect(await transaction(transactionId)).toMatchObject({
          status: 'success',
          resultCode: '0',
          responseDescription: 'The service request is processed successfully.',
        });
        expect((await events(transactionId)).at(-1)).toMatchObject({
          source: 'query',
          from_status: 'pending',
          to_status: 'success',
        });
      });

      it('adds the receipt when the lost callback turns up after all', async () => {
        const { transactionId, checkoutRequestId } = (
          await pay({ phoneNumber: '0700009999', amount: 30 })
        ).json();
        await new Promise((resolve) => setTimeout(resolve, 150));
        clock += 91_000;
        await reconcile();
        await deliver(
          successCallback(checkoutRequestId, {
            amount: 30,
            phoneNumber: '254700009999',
            receipt: 'UK2LATE001',
          }),
        );
        expect(await transaction(transactionId)).toMatchObject({
          status: 'success',
          mpesaReceiptNumber: 'UK2LATE001',
        });
      });

      it('asks again later while the payer has not answered, with backoff, then gives up as unknown, saying what to check', async () => {
        await world.simulator.prompts.setNext('254711000001', { outcome: { kind: 'manual' } });
        const { transactionId } = (await pay({ phoneNumber: '0711000001', amount: 5 })).json();
        clock += 91_000;
        expect(await reconcile()).toBe(1);
        const first = await world.database.db
          .selectFrom('transactions')
          .select(['next_check_at', 'check_attempts', 'status'])
          .where('id', '=', transactionId)
          .executeTakeFirstOrThrow();
        expect(first).toMatchObject({ status: 'pending', check_attempts: 1 });
        expect(Date.parse(first.next_check_at!) - clock).toBe(90_000);
        expect(await reconcile()).toBe(0); // not due again yet

        clock += 90_000;
        expect(await reconcile()).toBe(1);
        const second = await world.database.db
          .selectFrom('transactions')
          .select(['next_check_at'])
          .where('id', '=', transactionId)
          .executeTakeFirstOrThrow();
        expect(Date.parse(second.next_check_at!) - clock).toBe(120_000); // 180 s capped at 120 s

        clock += 600_000;
        expect(await reconcile()).toBe(1);
        expect(await transaction(transactionId)).toMatchObject({
          status: 'unknown',
          responseDescription:
            'M-PESA gave no result for this payment within 10 minutes. Whether the payer paid is ' +
            'not known: check the M-PESA statement for a payment of 5 KES from this phone number ' +
            'before asking for the money again.',
        });
        expect((await events(transactionId)).at(-1)).toMatchObject({
          source: 'reconciliation',
          to_status: 'unknown',
        });
      });

      it('lets a genuine success callback settle a payment reconciliation gave up on', async () => {
        await world.simulator.prompts.setNext('254711000002', { outcome: { kind: 'manual' } });
        const { transactionId, checkoutRequestId } = (
          await pay({ phoneNumber: '0711000002', amount: 5 })
        ).json();
        clock += 700_000;
        await reconcile();
        expect((await transaction(transactionId)).status).toBe('unknown');
        clock += 1000;
        await deliver(
          successCallback(checkoutRequestId, { amount: 5, phoneNumber: '254711000002' }),
        );
        expect(await transaction(transactionId)).toMatchObject({
          status: 'success',
          mpesaReceiptNumber: 'UF1E26WQJZ',
        });
        expect((await events(transactionId)).at(-1)).toMatchObject({
          source: 'callback',
          from_status: 'unknown',
          to_status: 'success',
          note: 'late callback settled the unknown outcome',
        });
      });

      it('lets no two reconcilers claim the same transaction', async () => {
        await world.simulator.prompts.setNext('254711000003', { outcome: { kind: 'manual' } });
        await pay({ phoneNumber: '0711000003', amount: 5 });
        clock += 91_000;
        const now = new Date(clock).toISOString();
        const lease = new Date(clock + 60_000).toISOString();
        const { claimDueTransactions } =
          await import('../reconciliation/reconciliation.repository.ts');
        const [a, b] = await Promise.all([
          claimDueTransactions(world.database.db, 'a', now, lease, 10),
          claimDueTransactions(world.database.db, 'b', now, lease, 10),
        ]);
        expect(a.length + b.length).toBe(1);
      });
    });

    describe('idempotent initiation', () => {
      it('answers a repeated request with the same key and body once, and prompts the phone once', async () => {
        const headers = { 'Idempotency-Key': 'key-001' };
        const first = await pay({ phoneNumber: '0712345678', amount: 20 }, headers);
        const second = await pay({ phoneNumber: '+254 712 345 678', amount: '20' }, headers);
        expect(first.statusCode).toBe(200);
        expect(second.statusCode).toBe(200);
        expect(second.json()).toEqual(first.json());
        expect(second.headers['idempotent-replayed']).toBe('true');
        expect(world.simulator.prompts.list()).toHaveLength(1);
        expect(
          (await world.app.inject({ url: '/api/mpesa/transactions' })).json().data,
        ).toHaveLength(1);
      });

      it('refuses the same key with another body', async () => {
        await pay({ phoneNumber: '0712345678', amount: 20 }, { 'Idempotency-Key': 'key-002' });
        const other = await pay(
          { phoneNumber: '0712345678', amount: 21 },
          { 'Idempotency-Key': 'key-002' },
        );
        expect(other.statusCode).toBe(422);
        expect(other.json()).toMatchObject({
          code: 'IDEMPOTENCY_KEY_REUSED',
          message: expect.stringMatching(/already used for a different payment/),
        });
      });

      it('replays a refusal too, without asking Daraja again', async () => {
        const first = await pay(
          { phoneNumber: '0700000503', amount: 20 },
          { 'Idempotency-Key': 'key-003' },
        );
        const again = await pay(
          { phoneNumber: '0700000503', amount: 20 },
          { 'Idempotency-Key': 'key-003' },
        );
        expect(first.statusCode).toBe(503);
        expect(again.statusCode).toBe(503);
        expect(again.json()).toEqual(first.json());
        expect(
          world.simulator.log
            .list({ kind: 'request' })
            .filter((e) => e.kind === 'request' && e.path.includes('stkpush')),
        ).toHaveLength(1);
      });

      it('sends one prompt for concurrent requests with one key', async () => {
        const headers = { 'Idempotency-Key': 'key-004' };
        const answers = await Promise.all(
          [1, 2, 3, 4].map(() => pay({ phoneNumber: '0712345678', amount: 20 }, headers)),
        );
        expect(world.simulator.prompts.list()).toHaveLength(1);
        expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThanOrEqual(1);
        for (const answer of answers) expect([200, 409]).toContain(answer.statusCode);
      });

      it('refuses a key that is not 1 to 255 visible characters', async () => {
        const answer = await pay(
          { phoneNumber: '0712345678', amount: 20 },
          { 'Idempotency-Key': 'x'.repeat(256) },
        );
        expect(answer.statusCode).toBe(400);
        expect(answer.json().code).toBe('INVALID_IDEMPOTENCY_KEY');
      });
    });

    describe('no prompt bombing', () => {
      it('refuses a new prompt to a phone while its prompt is open, saying so, with no time to wait', async () => {
        expect((await pay({ phoneNumber: '0708374149', amount: 5 })).statusCode).toBe(200);
        const again = await pay({ phoneNumber: '0708374149', amount: 6 });
        expect(again.statusCode).toBe(429);
        expect(again.json()).toEqual({
          success: false,
          code: 'PHONE_BUSY',
          message:
            'A payment request is already waiting on this phone. Complete or cancel it, then try again in a minute.',
        });
        expect(again.headers['retry-after']).toBeUndefined();
        expect(world.simulator.prompts.list()).toHaveLength(1);
      });

      it('refuses a new prompt to a phone for 60 s after the first was answered, saying how long is left', async () => {
        const first = (await pay({ phoneNumber: '0700001032', amount: 5 })).json();
        await new Promise((resolve) => setTimeout(resolve, 150));
        await deliver(failureCallback(first.checkoutRequestId, 1032, 'Request Cancelled by user.'));
        const again = await pay({ phoneNumber: '0700001032', amount: 6 });
        expect(again.statusCode).toBe(429);
        const wait = Number(again.headers['retry-after']);
        expect(wait).toBeGreaterThanOrEqual(58);
        expect(wait).toBeLessThanOrEqual(60);
        expect(again.json()).toEqual({
          success: false,
          code: 'PHONE_BUSY',
          message: `The last payment request to this phone has just ended. To protect the phone from repeated prompts, a new one can be sent in ${wait === 60 ? '1 minute' : `${wait} seconds`}.`,
        });
        expect(world.simulator.prompts.list()).toHaveLength(1);
      });

      it('frees the phone at once when Daraja refused the push, since no prompt was sent', async () => {
        expect((await pay({ phoneNumber: '0700000503', amount: 5 })).statusCode).toBe(503);
        expect((await pay({ phoneNumber: '0700000503', amount: 5 })).statusCode).toBe(503);
      });

      it('limits payment requests per client address', async () => {
        await world.rebuild({ STKPUSH_RATE_LIMIT: '2' });
        expect((await pay({ phoneNumber: '0711000011', amount: 1 })).statusCode).toBe(200);
        expect((await pay({ phoneNumber: '0711000012', amount: 1 })).statusCode).toBe(200);
        const third = await pay({ phoneNumber: '0711000013', amount: 1 });
        expect(third.statusCode).toBe(429);
        expect(third.json()).toEqual({
          success: false,
          code: 'RATE_LIMITED',
          message:
            'Too many payment requests from your network. Please wait a minute and try again.',
        });
        // When the address's minute ends.
        const wait = Number(third.headers['retry-after']);
        expect(wait).toBeGreaterThanOrEqual(1);
        expect(wait).toBeLessThanOrEqual(60);
        const elsewhere = await world.app.inject({
          method: 'POST',
          url: '/api/mpesa/stkpush',
          payload: { phoneNumber: '0711000014', amount: 1 },
          remoteAddress: '10.0.0.9',
        });
        expect(elsewhere.statusCode).toBe(200);
      });

      it('counts only the payment requests it lets through, and replays no refusal by the limit', async () => {
        await world.rebuild({ STKPUSH_RATE_LIMIT: '1' });
        // Mistyped requests are refused before anything is counted.
        for (const phoneNumber of ['0711', '12345', 'not a phone']) {
          expect((await pay({ phoneNumber, amount: 1 })).statusCode).toBe(400);
        }
        const payWithKey = (phoneNumber: string) =>
          world.app.inject({
            method: 'POST',
            url: '/api/mpesa/stkpush',
            headers: { 'idempotency-key': 'retry-me-later' },
            payload: { phoneNumber, amount: 1 },
          });
        expect((await pay({ phoneNumber: '0711000021', amount: 1 })).statusCode).toBe(200);
        const refused = await payWithKey('0711000022');
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
        // The refusal left no payment and no stored answer: the same key, next window, is fresh.
        expect(
          await world.database.db
            .selectFrom('transactions')
            .select('id')
            .where('phone_number', '=', '254711000022')
            .execute(),
        ).toEqual([]);
        expect(
          await world.database.db
            .selectFrom('idempotency_keys')
            .select('key')
            .where('key', '=', 'retry-me-later')
            .execute(),
        ).toEqual([]);
      });

      it('stops a flood of payment requests of any kind from one address, at ten times the payment limit', async () => {
        await world.rebuild({ STKPUSH_RATE_LIMIT: '1' });
        // Invalid requests spend nothing of the payment limit, but count toward the looser one.
        for (let i = 0; i < 10; i++) {
          expect((await pay({ phoneNumber: 'not a phone', amount: 1 })).statusCode).toBe(400);
        }
        const flooded = await pay({ phoneNumber: '0711000031', amount: 1 });
        expect(flooded.statusCode).toBe(429);
        expect(flooded.json()).toEqual({
          success: false,
          code: 'TOO_MANY_REQUESTS',
          message: 'Too many requests from your network. Please wait a minute and try again.',
        });
        expect(Number(flooded.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(world.simulator.prompts.list()).toEqual([]);
        const elsewhere = await world.app.inject({
          method: 'POST',
          url: '/api/mpesa/stkpush',
          payload: { phoneNumber: '0711000032', amount: 1 },
          remoteAddress: '10.0.0.9',
        });
        expect(elsewhere.statusCode).toBe(200);
      });

      it('keeps no busy phone’s refusal under an Idempotency-Key: the same request passes once the phone is free', async () => {
        const withKey = (key: string) =>
          world.app.inject({
            method: 'POST',
            url: '/api/mpesa/stkpush',
            headers: { 'idempotency-key': key },
            payload: { phoneNumber: '0700001032', amount: 7 },
          });
        const first = (await withKey('first-try')).json();
        await new Promise((resolve) => setTimeout(resolve, 150));
        await deliver(failureCallback(first.checkoutRequestId, 1032, 'Request Cancelled by user.'));
        const held = await withKey('second-try');
        expect(held.statusCode).toBe(429);
        expect(held.json()).toMatchObject({ code: 'PHONE_BUSY' });
        clock += Number(held.headers['retry-after']) * 1000;
        const later = await withKey('second-try');
        expect(later.statusCode).toBe(200);
        expect(later.headers['idempotent-replayed']).toBeUndefined();
        expect(later.json().transactionId).not.toBe(first.transactionId);
      });

      it('replays a refused push with the id of the failed payment it saved', async () => {
        const withKey = () =>
          world.app.inject({
            method: 'POST',
            url: '/api/mpesa/stkpush',
            headers: { 'idempotency-key': 'refused-push' },
            payload: { phoneNumber: '0700000503', amount: 7 },
          });
        const refused = await withKey();
        expect(refused.statusCode).toBe(503);
        const { transactionId } = refused.json();
        expect(typeof transactionId).toBe('string');
        const replay = await withKey();
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.statusCode).toBe(503);
        expect(replay.json()).toEqual(refused.json());
        const saved = await world.app.inject({ url: `/api/mpesa/transactions/${transactionId}` });
        expect(saved.json().data).toMatchObject({ status: 'failed' });
      });

      it('accepts callbacks only from allowed addresses when an allow-list is set', async () => {
        await world.rebuild({ MPESA_CALLBACK_ALLOWED_IPS: '196.201.214.200' });
        const { transactionId, checkoutRequestId } = (
          await pay({ phoneNumber: '0712345678', amount: 450 })
        ).json();
        const body = JSON.stringify(
          successCallback(checkoutRequestId, { amount: 450, phoneNumber: '254712345678' }),
        );
        const send = (remoteAddress: string) =>
          world.app.inject({
            method: 'POST',
            url: CALLBACK_PATH,
            headers: { 'content-type': 'application/json' },
            payload: body,
            remoteAddress,
          });
        expect((await send('203.0.113.7')).statusCode).toBe(403);
        expect((await transaction(transactionId)).status).toBe('pending');
        expect((await send('196.201.214.200')).statusCode).toBe(200);
        expect((await transaction(transactionId)).status).toBe('success');
      });

      it('matches the allow-list however an address is spelt', async () => {
        await world.rebuild({
          MPESA_CALLBACK_ALLOWED_IPS: '0:0:0:0:0:0:0:1,::FFFF:196.201.214.206,2001:DB8::A',
        });
        const send = (remoteAddress: string) =>
          world.app.inject({
            method: 'POST',
            url: CALLBACK_PATH,
            headers: { 'content-type': 'application/json' },
            payload: JSON.stringify(failureCallback('ws_CO_nobody', 1032, 'x')),
            remoteAddress,
          });
        for (const address of ['::1', '196.201.214.206', '::ffff:196.201.214.206', '2001:db8::a']) {
          expect((await send(address)).statusCode, address).toBe(200);
        }
        expect((await send('196.201.214.207')).statusCode).toBe(403);
      });

      it('refuses oversized bodies plainly', async () => {
        const answer = await pay({
          phoneNumber: '0712345678',
          amount: 1,
          description: 'x'.repeat(20_000),
        });
        expect(answer.statusCode).toBe(413);
        expect(answer.json()).toMatchObject({ success: false, code: 'BODY_TOO_LARGE' });
      });
    });
  });
}
