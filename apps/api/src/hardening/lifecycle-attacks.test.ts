/**
 * A stranger's attack on the lifecycle, on SQLite and PostgreSQL: flags and a person's review
 * against redelivered callbacks, callbacks matched by phone and amount racing each other and late
 * acknowledgements, the phone lock of a push M-PESA never acknowledged, and give-up at extreme
 * settings (`npm run review` with odd input is in review-cli.test.ts). Each test failed before its fix; the comments say
 * what happened then.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-db.ts';
import { ackBody as ack, type FakeDaraja } from '../test/fake-daraja.ts';
import { useApiWithFakeDaraja } from '../test/fake-daraja-world.ts';
import { failureCallback, successCallback } from '../test/callbacks.ts';
import { clearFlag } from '../features/review/review.ts';

const PHONE = '254712345678';

for (const dialect of DIALECTS) {
  describe(`the lifecycle under attack (${dialect})`, () => {
    const world = useApiWithFakeDaraja(dialect);
    const { build, pay, deliver, row, outcomes } = world;
    let fake: FakeDaraja;
    const review = (id: string, note: string, status?: 'success' | 'failed' | 'cancelled') =>
      clearFlag(world.database.db, id, {
        note,
        ...(status ? { status } : {}),
        now: new Date(world.clock),
      });

    // ---------------------------------------------------------------- flags and reviews

    describe('A: a success callback for a payment that is already flagged', () => {
      it('A1: a payer who paid is not left shown as cancelled (flag kept, status success)', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_A1') });
        await build(fake.url);
        const { transactionId } = (await pay()).json();
        await deliver(failureCallback('ws_CO_A1', 1032, 'Request Cancelled by user.'));
        await deliver(failureCallback('ws_CO_A1', 1037, 'DS timeout user cannot be reached.'));
        expect((await row(transactionId)).flagged_reason).toMatch(/contradicting/);
        // Then M-PESA reports that the money moved.
        await deliver(successCallback('ws_CO_A1', { amount: 100, phoneNumber: PHONE }));
        const after = await row(transactionId);
        expect(after.flagged_reason).not.toBeNull();
        // Now (reliability.md: "a success still lifts the status, so a payer who paid is
        // never shown unpaid"): success. Before the fix: cancelled, no receipt.
        expect(after.status).toBe('success');
        expect(after.mpesa_receipt_number).toBe('UF1E26WQJZ');
      });
    });

    describe('B: after a person clears a flag, a duplicate callback changes nothing', () => {
      it('B0: a person settles a flagged mismatch, and the history keeps their note', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_B0') });
        await build(fake.url);
        const { transactionId } = (await pay()).json();
        await deliver(successCallback('ws_CO_B0', { amount: 1, phoneNumber: PHONE }));
        await review(transactionId, 'payer paid the rest in cash', 'success');
        expect(await row(transactionId)).toMatchObject({ status: 'success', flagged_reason: null });
        const last = await world.database.db
          .selectFrom('transaction_events')
          .select(['source', 'from_status', 'to_status', 'note'])
          .where('transaction_id', '=', transactionId)
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        expect(last).toEqual({
          source: 'review',
          from_status: 'failed',
          to_status: 'success',
          note: 'flag cleared (M-PESA reported 1 KES, not 100 KES): payer paid the rest in cash',
        });
      });

      it('B1: the reviewer settles a contradicted success as failed; the duplicate success callback does not undo it', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_B1') });
        await build(fake.url);
        const { transactionId } = (await pay()).json();
        await deliver(failureCallback('ws_CO_B1', 1032, 'Request Cancelled by user.'));
        const success = successCallback('ws_CO_B1', { amount: 100, phoneNumber: PHONE });
        await deliver(success);
        expect(await row(transactionId)).toMatchObject({ status: 'success' });
        await review(transactionId, 'checked the statement: reversed, no money kept', 'failed');
        expect(await row(transactionId)).toMatchObject({ status: 'failed', flagged_reason: null });

        await deliver(success); // Daraja redelivers the very same callback
        // Now: duplicate; the person's decision stands. Before the fix: success again, unflagged.
        expect(await row(transactionId)).toMatchObject({ status: 'failed', flagged_reason: null });
        expect((await outcomes()).at(-1)).toBe('duplicate');
      });

      it('B2: a duplicate of the mismatched callback does not re-flag a payment a person cleared', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_B2') });
        await build(fake.url);
        const { transactionId } = (await pay()).json();
        const short = successCallback('ws_CO_B2', { amount: 1, phoneNumber: PHONE });
        await deliver(short);
        await review(transactionId, 'payer paid the rest in cash', 'success');
        await deliver(short); // redelivery
        // Now: duplicate, nothing changes. Before the fix: flagged again ('mismatch').
        expect(await row(transactionId)).toMatchObject({ status: 'success', flagged_reason: null });
        expect((await outcomes()).at(-1)).toBe('duplicate');
      });

      it('B3: a duplicate of the contradicting callback does not re-flag a payment a person cleared', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_B3') });
        await build(fake.url);
        const { transactionId } = (await pay()).json();
        await deliver(failureCallback('ws_CO_B3', 1032, 'Request Cancelled by user.'));
        const second = failureCallback('ws_CO_B3', 1, 'The balance is insufficient.');
        await deliver(second);
        expect((await row(transactionId)).flagged_reason).toMatch(/contradicting/);
        await review(transactionId, 'payer cancelled; nothing moved');
        await deliver(second); // redelivery of the second one
        expect(await row(transactionId)).toMatchObject({
          status: 'cancelled',
          flagged_reason: null,
        });
        expect((await outcomes()).at(-1)).toBe('duplicate');
      });

      it('B4: a duplicate of the callback that raised the flag is recorded as duplicate while flagged', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_B4') });
        await build(fake.url);
        await pay();
        await deliver(failureCallback('ws_CO_B4', 1032, 'Request Cancelled by user.'));
        const success = successCallback('ws_CO_B4', { amount: 100, phoneNumber: PHONE });
        await deliver(success);
        await deliver(success);
        // Before the fix: ['applied', 'applied', 'ignored']: the lifting success is recorded as 'applied'
        // (reliability.md says a contradicting callback "is recorded as `contradiction`"), and its
        // redelivery as 'ignored' (the flagged branch only recognises repeats of a mismatch).
        expect((await outcomes())[2]).toBe('duplicate');
      });
    });

    describe('C: unknown payments and the review tool', () => {
      it('C1: a payment reconciliation gave up on (unknown) can be found and settled with npm run review', async () => {
        fake = await world.startFake({ kind: 'hang' });
        const env = { RECONCILE_AFTER_S: '30', RECONCILE_GIVE_UP_S: '60' };
        await build(fake.url, env);
        expect((await pay()).statusCode).toBe(504);
        const { id } = await world.database.db
          .selectFrom('transactions')
          .select('id')
          .executeTakeFirstOrThrow();
        world.clock += 61_000;
        await world.reconcile(env);
        expect((await row(id)).status).toBe('unknown');
        // The merchant checked the statement and wants to record it. Before the fix: "is not flagged".
        await expect(review(id, 'found it on the statement', 'success')).resolves.toMatchObject({
          status: 'success',
        });
      });
    });

    // ---------------------------------------------------------------- unacknowledged pushes

    describe('D: two success callbacks for different CheckoutRequestIDs, one unacknowledged payment', () => {
      it('D1: at once: only one is attached; the other is kept apart (orphan) and the record keeps its own receipt and id', async () => {
        fake = await world.startFake({ kind: 'hang' });
        await build(fake.url);
        let bad = 0;
        const rounds = 8;
        for (let round = 0; round < rounds; round++) {
          const phone = `07123456${String(10 + round)}`;
          const msisdn = `254${phone.slice(1)}`;
          expect((await pay(phone, 100)).statusCode).toBe(504);
          const [a, b] = await Promise.all([
            deliver(
              successCallback(`ws_CO_D1a${round}`, {
                amount: 100,
                phoneNumber: msisdn,
                receipt: `RA${round}XXXXXXX`,
              }),
            ),
            deliver(
              successCallback(`ws_CO_D1b${round}`, {
                amount: 100,
                phoneNumber: msisdn,
                receipt: `RB${round}XXXXXXX`,
              }),
            ),
          ]);
          expect(a.statusCode).toBe(200);
          expect(b.statusCode).toBe(200);
          const tx = await world.database.db
            .selectFrom('transactions')
            .selectAll()
            .where('phone_number', '=', msisdn)
            .executeTakeFirstOrThrow();
          const cbs = await world.database.db
            .selectFrom('callbacks')
            .select(['checkout_request_id', 'transaction_id', 'outcome'])
            .where('checkout_request_id', 'in', [`ws_CO_D1a${round}`, `ws_CO_D1b${round}`])
            .execute();
          const applied = cbs.find((c) => c.outcome === 'applied');
          const consistent =
            tx.status === 'success' &&
            applied !== undefined &&
            tx.checkout_request_id === applied.checkout_request_id &&
            cbs.filter((c) => c.transaction_id === tx.id).length === 1;
          if (!consistent) {
            bad++;
          }
        }
        expect(bad).toBe(0);
      });
    });

    describe('D2: the late acknowledgement of a newer push and an older unacknowledged push', () => {
      it('a duplicate success callback never makes a second payment success', async () => {
        fake = await world.startFake({ kind: 'hang' });
        await build(fake.url, { PHONE_COOLDOWN_S: '0', DARAJA_TIMEOUT_MS: '1000' });
        // T1: M-PESA never acknowledged it (but the prompt reached the phone as ws_CO_X).
        expect((await pay()).statusCode).toBe(504);
        world.clock += 15_000; // past the push deadline (4 * 1 s + 10 s): the phone is free again
        // T2: a new push, same phone and amount, whose acknowledgement (ws_CO_Y) is slow.
        fake.behaviour = { kind: 'answer', status: 200, body: ack('ws_CO_Y'), delayMs: 500 };
        const second = pay();
        await new Promise((resolve) => setTimeout(resolve, 200));
        // Meanwhile the payer pays T1's prompt: its callback is matched to the newest
        // unacknowledged payment, T2.
        const paidX = successCallback('ws_CO_X', {
          amount: 100,
          phoneNumber: PHONE,
          receipt: 'RXXXXXXXXX',
        });
        await deliver(paidX);
        expect((await second).statusCode).toBe(200); // T2's ack overwrites ws_CO_X with ws_CO_Y
        await deliver(paidX); // Daraja redelivers ws_CO_X
        const rows = await world.database.db
          .selectFrom('transactions')
          .select(['id', 'status', 'checkout_request_id', 'mpesa_receipt_number'])
          .orderBy('created_at')
          .execute();
        // One payment (one receipt), so one success: the first delivery could have been T1's or
        // T2's, so it matched neither and flagged both; once T2 was acknowledged as ws_CO_Y, the
        // redelivery could only be T1's.
        expect(rows.filter((r) => r.status === 'success')).toHaveLength(1);
        expect(rows.map((r) => r.checkout_request_id)).toEqual(['ws_CO_X', 'ws_CO_Y']);
        expect(await outcomes()).toEqual(['orphan', 'applied']);
      });
    });

    describe('G: a fresh-eyes review of the fixes', () => {
      /** A payment, acknowledged as `checkoutRequestId`, then set as given (what a history left). */
      async function paymentLeftAs(checkoutRequestId: string, patch: Record<string, unknown>) {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack(checkoutRequestId) });
        await build(fake.url);
        const { transactionId } = (await pay()).json();
        await world.database.db
          .updateTable('transactions')
          .set(patch)
          .where('id', '=', transactionId)
          .execute();
        return transactionId as string;
      }

      it('G1: a flagged payment still waiting for M-PESA cannot be reviewed, so it is still checked', async () => {
        const id = await paymentLeftAs('ws_CO_G1', { flagged_reason: 'could be another request' });
        // Before the fix: the flag was cleared and the check schedule with it, so the payment was
        // never asked about again and held the phone until a restart.
        await expect(review(id, 'looks fine')).rejects.toThrow(
          `Transaction ${id} is still waiting for M-PESA; review it once it has an outcome.`,
        );
        expect(await row(id)).toMatchObject({
          status: 'pending',
          flagged_reason: 'could be another request',
        });
        expect((await row(id)).next_check_at).not.toBeNull();
      });

      it('G2: a flagged success learnt from a query still gets its receipt from a late callback', async () => {
        const id = await paymentLeftAs('ws_CO_G2', {
          status: 'success',
          result_code: '0',
          flagged_reason: 'could be another request',
        });
        await deliver(successCallback('ws_CO_G2', { amount: 100, phoneNumber: PHONE }));
        expect(await row(id)).toMatchObject({
          status: 'success',
          mpesa_receipt_number: 'UF1E26WQJZ',
          flagged_reason: 'could be another request',
        });
      });

      it('G3: a contradicting callback on a flagged payment is recorded as a contradiction', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_G3') });
        await build(fake.url);
        await pay();
        await deliver(failureCallback('ws_CO_G3', 1032, 'Request Cancelled by user.'));
        await deliver(failureCallback('ws_CO_G3', 1037, 'DS timeout user cannot be reached.'));
        await deliver(failureCallback('ws_CO_G3', 2001, 'The initiator information is invalid.'));
        expect(await outcomes()).toEqual(['applied', 'contradiction', 'contradiction']);
      });

      it('G4: a callback whose application fails is still on record, as received', async () => {
        fake = await world.startFake({ kind: 'answer', status: 200, body: ack('ws_CO_G4') });
        await build(fake.url);
        await pay();
        // The events table gone: applying any callback fails.
        await world.database.db.schema.dropTable('transaction_events').execute();
        const body = JSON.stringify(
          failureCallback('ws_CO_G4', 1032, 'Request Cancelled by user.'),
        );
        expect((await deliver(body)).statusCode).toBe(500);
        const kept = await world.database.db
          .selectFrom('callbacks')
          .select(['raw_body', 'outcome'])
          .execute();
        expect(kept).toEqual([{ raw_body: body, outcome: 'received' }]);
      });
    });

    describe('E: the phone lock for a push M-PESA never acknowledged', () => {
      it('E1: a concurrent second request while the first push is still on its way gets the plain busy message', async () => {
        fake = await world.startFake({ kind: 'hang' });
        await build(fake.url, { DARAJA_TIMEOUT_MS: '1500' });
        const first = pay();
        await new Promise((resolve) => setTimeout(resolve, 200));
        const second = await pay();
        expect(second.statusCode).toBe(429);
        // Before the fix: "The last payment request to this phone was not confirmed by M-PESA, so it may
        // ... already have been paid" while it is simply in flight (double submission).
        expect(second.json().message).not.toMatch(/not confirmed by M-PESA/);
        await first;
      });

      it('E2: the wait it announces is the wait it enforces, counted from the push that ended', async () => {
        fake = await world.startFake({ kind: 'hang' });
        // Before, the phone was held until the push's worst-case deadline (4 × timeout + 10 s)
        // while the message announced "1 second".
        await build(fake.url, { DARAJA_TIMEOUT_MS: '100', PHONE_COOLDOWN_S: '30' });
        expect((await pay()).statusCode).toBe(504);
        world.clock += 2_000;
        const held = await pay();
        expect(held.statusCode).toBe(429);
        const announced = /can be sent in (\d+) seconds/.exec(held.json().message);
        expect(Number(announced?.[1])).toBe(28);
        world.clock += 28_000;
        expect((await pay()).statusCode).toBe(504);
      });

      it('E3: RECONCILE_GIVE_UP_S shorter than the push deadline: a push still in flight is not given up as unknown', async () => {
        fake = await world.startFake({
          kind: 'answer',
          status: 200,
          body: ack('ws_CO_E3'),
          delayMs: 1500,
        });
        const env = { RECONCILE_AFTER_S: '1', RECONCILE_GIVE_UP_S: '1', DARAJA_TIMEOUT_MS: '5000' };
        await build(fake.url, env);
        const paying = pay();
        await new Promise((resolve) => setTimeout(resolve, 300));
        world.clock += 2_000;
        await world.reconcile(env);
        const answer = await paying;
        expect(answer.statusCode).toBe(200);
        const tx = await row(answer.json().transactionId);
        // Before the fix: 'unknown' with "M-PESA never confirmed the payment request within 1 second"
        // although M-PESA acknowledged it; the ack's ids are stored on an unknown row and no
        // reconciliation will ever query it.
        expect(tx.status).toBe('pending');
      });
    });
  });
}
