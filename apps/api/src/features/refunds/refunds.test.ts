/**
 * Refunds from end to end, over HTTP, against the simulator as Daraja: an owner refunds a paid
 * payment and the simulator moves the money back; two requests at once make one reversal; a lost
 * Result is recovered by transaction status; a reversal M-PESA fails is failed and may be asked for
 * again; who may not, and what may not be refunded, are refused with a sentence; a forged Result
 * changes nothing.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callbackUrls } from '../../callbacks/callback-paths.ts';
import { CALLBACK_ROUTES } from '../index.ts';
import { createDarajaClient } from '../../daraja/daraja-client.ts';
import {
  addStaff,
  refusalsOf,
  refusedAll,
  send,
  signedIn,
  STAFF,
} from '../../test/operator-session.ts';
import { freePort } from '../../test/ports.ts';
import { startSimulator, type RunningSimulator } from '../../test/simulator.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { createTestApp, TEST_CALLBACK_SECRET } from '../../test/test-app.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/test-db.ts';
import { anEndpoint } from '../../test/webhooks.fixtures.ts';
import { recoverDueRefunds } from './refund-recovery.ts';
import { silentLog } from '../../test/silent-log.ts';

const RESULT_PATH = `/api/mpesa/callback/${TEST_CALLBACK_SECRET}/reversal`;

for (const dialect of DIALECTS) {
  describe(`refunds by reversal (${dialect})`, () => {
    let simulator: RunningSimulator;
    let database: TestDatabase;
    let app: FastifyInstance;
    let config: Awaited<ReturnType<typeof createTestApp>>['config'];
    let owner: string;

    beforeAll(async () => {
      simulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '150' });
      database = await createTestDatabase(dialect);
      await addStaff(database, new Date());
      await anEndpoint(database.db, { eventTypes: ['payment.refunded'] });
      const port = await freePort();
      ({ app, config } = await createTestApp({
        database,
        env: {
          MPESA_BASE_URL: simulator.url,
          PORT: String(port),
          MPESA_CALLBACK_URL: `http://127.0.0.1:${port}`,
          HISTORY_ACCESS: 'operators',
          STKPUSH_RATE_LIMIT: '0',
          PHONE_COOLDOWN_S: '0',
        },
      }));
      await app.listen({ host: '127.0.0.1', port });
      owner = await signedIn(app, STAFF.owner);
    });
    afterAll(async () => {
      await app.close();
      await simulator.close();
      await database.destroy();
    });
    afterEach(async () => {
      await fetch(`${simulator.url}/_sim/faults`, { method: 'DELETE' });
    });

    /** A payment from `phone`, paid through the simulator: its id. */
    async function paid(phone: string, amount: number): Promise<string> {
      const answer = await app.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        payload: { phoneNumber: phone, amount },
      });
      const { transactionId } = answer.json();
      await expect.poll(async () => (await view(transactionId)).status).toBe('success');
      return transactionId;
    }
    const view = async (id: string) =>
      (await send(app, { method: 'GET', url: `/api/mpesa/transactions/${id}` }, owner)).json().data;
    const refund = (id: string, payload: Record<string, unknown>, session = owner) =>
      send(app, { method: 'POST', url: `/api/mpesa/transactions/${id}/refund`, payload }, session);
    const refundOf = async (id: string) => (await view(id)).merchant.refund;
    const reversalsSent = () =>
      simulator.log
        .list({ kind: 'request' })
        .filter((entry) => entry.kind === 'request' && entry.path.includes('/mpesa/reversal/'))
        .length;
    const wallet = (msisdn: string) => simulator.ledger.wallet(msisdn).balance;
    /** One round of the recovery, `aheadS` seconds from now. */
    const recoverOnce = (aheadS: number) =>
      recoverDueRefunds({
        db: database.db,
        now: () => new Date(Date.now() + aheadS * 1000),
        log: silentLog,
        money: createDarajaClient({ ...config.mpesa, initiator: config.refunds.initiator }),
        callbackUrlFor: callbackUrls(
          CALLBACK_ROUTES,
          config.mpesa.callbackBaseUrl,
          TEST_CALLBACK_SECRET,
        ),
        settings: config.refunds,
        partyB: config.mpesa.partyB,
        leaseMs: config.reconcile.leaseMs,
        instanceId: 'test-instance',
      });

    it('an owner refunds a paid payment: reversed, the payer’s money back, the payment refunded', async () => {
      const id = await paid('0700000000', 120);
      const before = wallet('254700000000');
      expect((await view(id)).merchant).toMatchObject({ mayRefund: true, refundBlockedBy: null });

      const answer = await refund(id, { reason: 'Returned goods', amount: 120 });
      expect(answer.statusCode).toBe(202);
      expect(answer.json().data).toMatchObject({ status: 'requested', requestedBy: STAFF.owner });

      await expect.poll(async () => (await refundOf(id))?.status).toBe('reversed');
      const data = await view(id);
      expect(data).toMatchObject({ status: 'refunded' });
      expect(data.merchant).toMatchObject({ mayRefund: false, refundBlockedBy: null });
      expect(data.merchant.refund.reversalReceipt).toMatch(/^[A-Z0-9]{10}$/);
      expect(wallet('254700000000')).toBe(before + 120_00);

      const kinds = await database.db
        .selectFrom('transaction_events')
        .select(['kind', 'from_status', 'to_status'])
        .where('transaction_id', '=', id)
        .where('source', '=', 'refund')
        .orderBy('at')
        .orderBy('id')
        .execute();
      expect(kinds).toEqual([
        { kind: 'refund_requested', from_status: 'success', to_status: 'success' },
        { kind: 'refunded', from_status: 'success', to_status: 'refunded' },
      ]);
      const audit = await database.db
        .selectFrom('audit_events')
        .select(['actor', 'target', 'detail'])
        .where('action', '=', 'refund')
        .where('target', '=', id)
        .execute();
      expect(audit).toEqual([
        { actor: STAFF.owner, target: id, detail: '120 KES: Returned goods' },
      ]);
      // The shop's systems hear of it (features/payments/payment-events.ts), in the same transaction.
      const told = await database.db
        .selectFrom('webhook_events')
        .select(['type', 'body'])
        .where('transaction_id', '=', id)
        .execute();
      expect(told.map((event) => event.type)).toEqual(['payment.refunded']);
      expect(JSON.parse(told[0]!.body)).toMatchObject({
        data: { payment: { _id: id, status: 'refunded' } },
      });
      // Refunded already: a second request is refused, and no reversal is sent.
      const again = await refund(id, { reason: 'Returned goods', amount: 120 });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('REFUND_EXISTS');
    });

    it('two refunds of one payment at once make one reversal; the other is told it exists', async () => {
      const id = await paid('0700000000', 130);
      const sentBefore = reversalsSent();
      const answers = await Promise.all([
        refund(id, { reason: 'Paid twice', amount: 130 }),
        refund(id, { reason: 'Paid twice', amount: 130 }, await signedIn(app, STAFF.owner)),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 409]);
      expect(answers.find((answer) => answer.statusCode === 409)?.json().code).toBe(
        'REFUND_EXISTS',
      );
      await expect.poll(async () => (await refundOf(id))?.status).toBe('reversed');
      expect(reversalsSent() - sentBefore).toBe(1);
    });

    it('a lost reversal Result is recovered by transaction status', async () => {
      const id = await paid('0700000000', 140);
      await fetch(`${simulator.url}/_sim/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          seed: 1,
          rules: [{ operation: 'callback', probability: 1, error: 'drop' }],
        }),
      });
      expect((await refund(id, { reason: 'Wrong size', amount: 140 })).statusCode).toBe(202);
      // The Result was due 150 ms later, and dropped.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await refundOf(id))?.status).toBe('requested');
      await fetch(`${simulator.url}/_sim/faults`, { method: 'DELETE' });

      expect(await recoverOnce(0)).toBe(0);
      expect(await recoverOnce(config.refunds.checkAfterS + 1)).toBe(1);
      await expect.poll(async () => (await refundOf(id))?.status).toBe('reversed');
      expect((await view(id)).status).toBe('refunded');
      const kept = await database.db
        .selectFrom('callbacks')
        .select(['kind', 'outcome'])
        .where('transaction_id', '=', id)
        .where('kind', '=', 'refund-status')
        .execute();
      expect(kept).toEqual([{ kind: 'refund-status', outcome: 'applied' }]);
    });

    it('a reversal M-PESA fails is failed, with its code; the payment stays paid, and may be asked again', async () => {
      // The simulator's number whose reversals fail with 1: the shortcode cannot pay it back (§M7.1).
      await fetch(`${simulator.url}/_sim/numbers/254700030003/next`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: '0' }),
      });
      const id = await paid('0700030003', 150);
      const before = wallet('254700030003');
      expect((await refund(id, { reason: 'Cancelled order', amount: 150 })).statusCode).toBe(202);
      await expect.poll(async () => (await refundOf(id))?.status).toBe('failed');
      const data = await view(id);
      expect(data.status).toBe('success');
      expect(data.merchant).toMatchObject({
        refund: { resultCode: '1' },
        mayRefund: true,
        refundBlockedBy: null,
      });
      expect(wallet('254700030003')).toBe(before);
      const again = await refund(id, { reason: 'Cancelled order', amount: 150 });
      expect(again.statusCode).toBe(202);
      expect(again.json().data).toMatchObject({ id: data.merchant.refund.id, status: 'requested' });
    });

    it('refuses everyone but a signed-in owner, on this site with the CSRF token', async () => {
      const id = await paid('0700000000', 160);
      const request = {
        method: 'POST' as const,
        url: `/api/mpesa/transactions/${id}/refund`,
        payload: { reason: 'Returned goods', amount: 160 },
      };
      expect(await refusalsOf(app, request)).toEqual(refusedAll(true));
      expect((await refundOf(id)) ?? null).toBeNull();
      const cashierView = (
        await send(
          app,
          { method: 'GET', url: `/api/mpesa/transactions/${id}` },
          await signedIn(app, STAFF.cashier),
        )
      ).json().data.merchant;
      expect(cashierView).toMatchObject({ mayRefund: false, refundBlockedBy: null });
    });

    it('refuses what cannot be refunded, each with its code and a sentence', async () => {
      const now = new Date().toISOString();
      const old = new Date(Date.now() - 40 * 24 * 3600_000).toISOString();
      const rows = [
        storedPayment('rf-pending', now, { status: 'pending' }),
        storedPayment('rf-flagged', now, {
          mpesa_receipt_number: 'UK2FLAG001',
          flagged_reason: 'two receipts',
        }),
        storedPayment('rf-old', old, { mpesa_receipt_number: 'UK2OLD0001' }),
        storedPayment('rf-paid', now, { mpesa_receipt_number: 'UK2PAID001' }),
      ];
      await database.db.insertInto('transactions').values(rows).execute();
      const refused = async (id: string, amount = 100) => {
        const answer = await refund(id, { reason: 'Returned goods', amount });
        return [answer.statusCode, answer.json().code, answer.json().message.length > 20];
      };
      expect(await refused('rf-pending')).toEqual([409, 'REFUND_NOT_PAID', true]);
      expect(await refused('rf-flagged')).toEqual([409, 'REFUND_FLAGGED', true]);
      expect(await refused('rf-old')).toEqual([409, 'REFUND_TOO_OLD', true]);
      expect(await refused('rf-paid', 99)).toEqual([400, 'REFUND_AMOUNT_MISMATCH', true]);
      expect(await refused('rf-none')).toEqual([404, 'TRANSACTION_NOT_FOUND', true]);
      const noReason = await refund('rf-paid', { reason: ' ', amount: 100 });
      expect([noReason.statusCode, noReason.json().code]).toEqual([400, 'VALIDATION_ERROR']);
      expect(
        await database.db
          .selectFrom('refunds')
          .selectAll()
          .where('transaction_id', 'like', 'rf-%')
          .execute(),
      ).toEqual([]);
    });

    it('a forged Result (wrong secret) changes nothing; an unreadable one is kept as invalid', async () => {
      const id = await paid('0700000000', 170);
      await fetch(`${simulator.url}/_sim/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          seed: 1,
          rules: [{ operation: 'callback', probability: 1, error: 'drop' }],
        }),
      });
      await refund(id, { reason: 'Returned goods', amount: 170 });
      const row = await database.db
        .selectFrom('refunds')
        .selectAll()
        .where('transaction_id', '=', id)
        .executeTakeFirstOrThrow();
      const forged = {
        Result: {
          ResultType: 0,
          ResultCode: 0,
          ResultDesc: 'The service request is processed successfully.',
          OriginatorConversationID: row.originator_conversation_id,
          ConversationID: row.conversation_id,
          TransactionID: 'UK2FORGED1',
        },
      };
      const wrong = await app.inject({
        method: 'POST',
        url: '/api/mpesa/callback/not-the-secret-0123456789/reversal',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(forged),
      });
      expect(wrong.statusCode).toBe(404);
      expect((await refundOf(id))?.status).toBe('requested');
      const unreadable = await app.inject({
        method: 'POST',
        url: RESULT_PATH,
        headers: { 'content-type': 'application/json' },
        payload: '{"Result":',
      });
      expect(unreadable.statusCode).toBe(400);
      const orphan = await app.inject({
        method: 'POST',
        url: RESULT_PATH,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({
          Result: { ...forged.Result, OriginatorConversationID: 'x', ConversationID: 'y' },
        }),
      });
      expect(orphan.statusCode).toBe(200);
      const outcomes = await database.db
        .selectFrom('callbacks')
        .select('outcome')
        .where('kind', '=', 'reversal')
        .where('transaction_id', 'is', null)
        .orderBy('received_at', 'desc')
        .orderBy('id', 'desc')
        .limit(2)
        .execute();
      expect(outcomes.map((kept) => kept.outcome)).toEqual(['orphan', 'invalid']);
      expect((await refundOf(id))?.status).toBe('requested');
    });
  });
}

describe('refunds where the history is open to all (HISTORY_ACCESS=open)', () => {
  let database: TestDatabase;
  afterEach(async () => {
    await database.destroy();
  });

  it('still take a signed-in owner', async () => {
    database = await createTestDatabase('sqlite');
    await addStaff(database, new Date());
    const { app } = await createTestApp({ database, env: { HISTORY_ACCESS: 'open' } });
    const request = {
      method: 'POST' as const,
      url: '/api/mpesa/transactions/tx-1/refund',
      payload: { reason: 'Returned goods', amount: 100 },
    };
    const stranger = await send(app, request, undefined);
    expect([stranger.statusCode, stranger.json().code]).toEqual([401, 'UNAUTHENTICATED']);
    const cashier = await send(app, request, await signedIn(app, STAFF.cashier));
    expect([cashier.statusCode, cashier.json().code]).toEqual([403, 'ROLE_NOT_ALLOWED']);
    const ownerAsks = await send(app, request, await signedIn(app, STAFF.owner));
    expect([ownerAsks.statusCode, ownerAsks.json().code]).toEqual([404, 'TRANSACTION_NOT_FOUND']);
    await app.close();
  });

  it('show a signed-in owner the merchant’s view of a payment, with its refund; anyone else the open page', async () => {
    database = await createTestDatabase('sqlite');
    await addStaff(database, new Date());
    await database.db
      .insertInto('transactions')
      .values(
        storedPayment('tx-open', new Date().toISOString(), { mpesa_receipt_number: 'UF1E26WQJZ' }),
      )
      .execute();
    const { app } = await createTestApp({ database, env: { HISTORY_ACCESS: 'open' } });
    const page = { method: 'GET' as const, url: '/api/mpesa/transactions/tx-open' };
    const anyone = (await send(app, page, undefined)).json().data;
    expect(anyone.view).toBeUndefined();
    expect(anyone.merchant).toBeUndefined();
    expect(anyone.phoneNumber).toBe('254712000999');
    const cashier = (await send(app, page, await signedIn(app, STAFF.cashier))).json().data;
    expect(cashier.merchant).toMatchObject({ mayRefund: false, refundBlockedBy: null });
    const owner = (await send(app, page, await signedIn(app, STAFF.owner))).json().data;
    expect(owner).toMatchObject({ view: 'merchant', merchant: { mayRefund: true } });
    await app.close();
  });
});
