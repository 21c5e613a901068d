/**
 * Payouts from end to end, over HTTP, against the simulator as Daraja, on both databases: a
 * cashier proposes a batch, a second owner approves, each payee's wallet receives it and the
 * shortcode's accounts move by the payouts and their charges to the cent; nobody approves their own,
 * and a stranger, a viewer or a cashier cannot; two approvals at once send once; a lost
 * acknowledgement is recovered by transaction status and never sent twice; M-PESA's failures in
 * plain words, corrected as a new payout; the shop's limits; webhooks and audit lines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
import { anEndpoint } from '../../test/webhooks.fixtures.ts';
import { recoverDuePayouts } from './payout-recovery.ts';
import { payoutDepsFor } from './index.ts';
import { proposePayout } from './payout-proposal.ts';
import { silentLog } from '../../test/silent-log.ts';

const SECOND_OWNER = 'Wanjiru';
const SHORTCODE = '174379';

for (const dialect of DIALECTS) {
  describe(`payouts (${dialect})`, () => {
    let simulator: RunningSimulator;
    let database: TestDatabase;
    let app: FastifyInstance;
    let config: Awaited<ReturnType<typeof createTestApp>>['config'];
    let owner: string;
    let secondOwner: string;
    let cashier: string;

    beforeAll(async () => {
      simulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '100' });
      database = await createTestDatabase(dialect);
      await addStaff(database, new Date());
      await addOperator(database.db, {
        name: SECOND_OWNER,
        role: 'owner',
        password: PASSWORD,
        now: new Date(),
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      });
      await anEndpoint(database.db, { eventTypes: ['payout.succeeded', 'payout.failed'] });
      const port = await freePort();
      ({ app, config } = await createTestApp({
        database,
        env: {
          MPESA_BASE_URL: simulator.url,
          PORT: String(port),
          MPESA_CALLBACK_URL: `http://127.0.0.1:${port}`,
          HISTORY_ACCESS: 'operators',
          // A second owner approves, as against M-PESA itself (on the simulator it is off).
          PAYOUT_APPROVAL: 'always',
          PAYOUT_MAX_AMOUNT: '100000',
          PAYOUT_DAILY_LIMIT: '300000',
        },
      }));
      await app.listen({ host: '127.0.0.1', port });
      owner = await signedIn(app, STAFF.owner);
      secondOwner = await signedIn(app, SECOND_OWNER);
      cashier = await signedIn(app, STAFF.cashier);
    });
    afterAll(async () => {
      await app.close();
      await simulator.close();
      await database.destroy();
    });
    afterEach(async () => {
      await fetch(`${simulator.url}/_sim/faults`, { method: 'DELETE' });
    });

    const post = (url: string, payload: Record<string, unknown>, session: string) =>
      send(app, { method: 'POST', url, payload }, session);
    const payout = async (id: string) =>
      (await send(app, { method: 'GET', url: `/api/payouts/${id}` }, owner)).json().data;
    const settled = (id: string, status = 'succeeded') =>
      expect.poll(async () => (await payout(id)).status).toBe(status);
    const b2cSent = () =>
      simulator.log
        .list({ kind: 'request' })
        .filter((entry) => entry.kind === 'request' && entry.path.includes('/mpesa/b2c/')).length;
    const wallet = (msisdn: string) => simulator.ledger.wallet(msisdn).balance;
    const accounts = () => ({ ...simulator.ledger.shortcode(SHORTCODE).accounts });
    const faults = (rules: object[]) =>
      fetch(`${simulator.url}/_sim/faults`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seed: 1, rules }),
      });
    /** One round of the recovery, `aheadS` seconds from now. */
    const recoverOnce = (aheadS: number) =>
      recoverDuePayouts({
        ...payoutDepsFor({
          config,
          database,
          now: () => new Date(Date.now() + aheadS * 1000),
          log: silentLog,
          money: createDarajaClient({ ...config.mpesa, initiator: config.refunds.initiator }),
          callbackUrlFor: callbackUrls(
            CALLBACK_ROUTES,
            config.mpesa.callbackBaseUrl,
            TEST_CALLBACK_SECRET,
          ),
        }),
        instanceId: 'test-instance',
      });
    /** Until nothing is due any more, `aheadS` seconds on (a paid payout's charge is asked for). */
    async function recoverAll(aheadS: number) {
      for (let round = 0; round < 5 && (await recoverOnce(aheadS)) > 0; round++) {
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }

    it('a cashier proposes a batch of three, a second owner approves: each paid once, to the cent', async () => {
      const before = { ...accounts(), john: wallet('254708374149'), nick: wallet('254705912645') };
      const proposed = await post(
        '/api/payouts/batches',
        {
          csv: 'to,amount,reason,kind\n0708374149,1500,Wages,SalaryPayment\n0705912645,800,Delivery,\n600000,2000,Stock,BusinessBuyGoods',
        },
        cashier,
      );
      expect(proposed.statusCode).toBe(201);
      const { batchId, payouts } = proposed.json().data;
      expect(payouts.map((each: { status: string }) => each.status)).toEqual([
        'proposed',
        'proposed',
        'proposed',
      ]);
      const sentBefore = b2cSent();
      const approved = await post(`/api/payouts/batches/${batchId}/approve`, {}, secondOwner);
      expect(approved.statusCode).toBe(200);
      for (const each of payouts) await settled(each.id);
      // A B2C Result carries no charge: transaction status is asked for it.
      await recoverAll(1);
      const [john, nick, till] = await Promise.all(
        payouts.map((each: { id: string }) => payout(each.id)),
      );
      expect(john).toMatchObject({
        kind: 'SalaryPayment',
        to: '254708374149',
        receiverName: '254708374149 - John Doe',
        receipt: expect.stringMatching(/^[A-Z0-9]{10}$/),
        charge: 22.4,
        proposedBy: STAFF.cashier,
        decidedBy: SECOND_OWNER,
      });
      expect(nick).toMatchObject({ kind: 'BusinessPayment', charge: 22.4 });
      expect(till).toMatchObject({ kind: 'BusinessBuyGoods', to: '600000', charge: 0 });
      expect(b2cSent() - sentBefore).toBe(2);
      expect(wallet('254708374149') - before.john).toBe(1500_00);
      expect(wallet('254705912645') - before.nick).toBe(800_00);
      const after = accounts();
      expect(before['Utility Account']! - after['Utility Account']!).toBe(2300_00);
      expect(before['Working Account']! - after['Working Account']!).toBe(2000_00);
      expect(before['Charges Paid Account']! - after['Charges Paid Account']!).toBe(44_80);

      const audit = await database.db
        .selectFrom('audit_events')
        .select(['action', 'actor'])
        .where('target', '=', john.id)
        .orderBy('at')
        .execute();
      expect(audit).toEqual([
        { action: 'payout_proposed', actor: STAFF.cashier },
        { action: 'payout_approved', actor: SECOND_OWNER },
      ]);
      const told = await database.db
        .selectFrom('webhook_events')
        .select(['type', 'body'])
        .where('type', '=', 'payout.succeeded')
        .execute();
      expect(told.map((event) => JSON.parse(event.body).data.payout.id)).toEqual(
        expect.arrayContaining(payouts.map((each: { id: string }) => each.id)),
      );
      // Payouts are never payments received: the history and its figures do not hold them.
      const history = await send(app, { method: 'GET', url: '/api/mpesa/transactions' }, owner);
      expect(history.json().data).toEqual([]);
      const figures = await send(app, { method: 'GET', url: '/api/mpesa/summary' }, owner);
      expect(JSON.stringify(figures.json().data.today)).not.toMatch(/2300|1500|800/);
    });

    it('nobody approves their own; a stranger, a viewer and a cashier cannot approve', async () => {
      const proposed = await post(
        '/api/payouts',
        { kind: 'SalaryPayment', to: '0708374149', amount: 100, reason: 'Tea money' },
        owner,
      );
      expect(proposed.statusCode).toBe(201);
      const id = proposed.json().data.id;
      const url = `/api/payouts/${id}/approve`;
      const own = await post(url, {}, owner);
      expect([own.statusCode, own.json().code]).toEqual([403, 'PAYOUT_OWN_APPROVAL']);
      expect(own.json().message).toBe(
        'Nobody approves their own payout: another owner must approve it.',
      );
      const refused = {
        stranger: await send(app, { method: 'POST', url }, undefined),
        viewer: await post(url, {}, await signedIn(app, STAFF.viewer)),
        cashier: await post(url, {}, cashier),
      };
      expect(
        Object.values(refused).map((answer) => [answer.statusCode, answer.json().code]),
      ).toEqual([
        [401, 'UNAUTHENTICATED'],
        [403, 'ROLE_NOT_ALLOWED'],
        [403, 'ROLE_NOT_ALLOWED'],
      ]);
      expect((await payout(id)).status).toBe('proposed');
      // A viewer sees the payouts, and cannot propose one.
      const viewer = await signedIn(app, STAFF.viewer);
      expect((await send(app, { method: 'GET', url: '/api/payouts' }, viewer)).statusCode).toBe(
        200,
      );
      const proposing = await post(
        '/api/payouts',
        { to: '0708374149', amount: 100, reason: 'x y' },
        viewer,
      );
      expect(proposing.statusCode).toBe(403);
    });

    it('two owners approving at once send once; the other is told it is decided', async () => {
      const id = (
        await post('/api/payouts', { to: '0708374149', amount: 120, reason: 'Twice?' }, cashier)
      ).json().data.id;
      const sentBefore = b2cSent();
      const answers = await Promise.all([
        post(`/api/payouts/${id}/approve`, {}, owner),
        post(`/api/payouts/${id}/approve`, {}, secondOwner),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.statusCode === 409)?.json().code).toBe(
        'PAYOUT_DECIDED',
      );
      await settled(id);
      expect(b2cSent() - sentBefore).toBe(1);
    });

    it('a lost acknowledgement is recovered by transaction status, and paid once', async () => {
      await recoverAll(86_400);
      const id = (
        await post(
          '/api/payouts',
          { to: '0705912645', amount: 130, reason: 'Lost answer' },
          cashier,
        )
      ).json().data.id;
      const before = wallet('254705912645');
      await faults([{ operation: 'b2c', probability: 1, error: 'drop' }]);
      const approved = await post(`/api/payouts/${id}/approve`, {}, owner);
      expect(approved.json().data).toMatchObject({ status: 'sending' });
      await faults([]);
      // Not due before PAYOUT_CHECK_AFTER_S.
      expect(await recoverOnce(0)).toBe(0);
      await recoverAll(config.payouts.checkAfterS + 1);
      await settled(id);
      await recoverAll(config.payouts.checkAfterS * 4);
      expect(wallet('254705912645') - before).toBe(130_00);
      const books = simulator.ledger
        .transactions()
        .filter((each) => each.originatorConversationId === `payout-${id}`);
      expect(books).toHaveLength(1);
      expect(await payout(id)).toMatchObject({ charge: 22.4, status: 'succeeded' });
    });

    it('a lost acknowledgement after M-PESA paid: recovered by status, never sent again', async () => {
      await recoverAll(86_400);
      const id = (
        await post(
          '/api/payouts',
          { to: '0708374149', amount: 140, reason: 'Slow M-PESA' },
          cashier,
        )
      ).json().data.id;
      // The answer and the Result are both lost: the money moved, and nobody told us.
      await faults([{ operation: 'callback', probability: 1, error: 'drop' }]);
      const before = wallet('254708374149');
      await post(`/api/payouts/${id}/approve`, {}, owner);
      expect(wallet('254708374149') - before).toBe(140_00);
      await database.db
        .updateTable('payouts')
        .set({ conversation_id: null })
        .where('id', '=', id)
        .execute();
      await faults([]);
      const sentBefore = b2cSent();
      await recoverAll(config.payouts.checkAfterS + 1);
      await settled(id);
      expect(b2cSent() - sentBefore).toBe(0);
      expect(wallet('254708374149') - before).toBe(140_00);
      expect(await payout(id)).toMatchObject({ charge: 22.4, receipt: expect.any(String) });
    });

    it('a crash between keeping the OriginatorConversationID and sending: recovered, paid once', async () => {
      await recoverAll(86_400);
      const id = (
        await post('/api/payouts', { to: '0705912645', amount: 160, reason: 'Crashed' }, cashier)
      ).json().data.id;
      // What the approval's commit leaves when the process dies before the request leaves.
      const at = new Date().toISOString();
      await database.db
        .updateTable('payouts')
        .set({
          status: 'sending',
          decided_by: STAFF.owner,
          decided_by_id: 'owner-id',
          decided_at: at,
          originator_conversation_id: `payout-${id}`,
          next_check_at: at,
          lease_owner: 'a-process-that-died',
          lease_until: at,
        })
        .where('id', '=', id)
        .execute();
      const before = wallet('254705912645');
      const sentBefore = b2cSent();
      await recoverAll(1);
      await settled(id);
      expect(b2cSent() - sentBefore).toBe(1);
      expect(wallet('254705912645') - before).toBe(160_00);
    });

    it('a payment to a business whose answer is lost is never sent again: unknown, for a person', async () => {
      const id = (
        await post(
          '/api/payouts',
          { kind: 'BusinessBuyGoods', to: '600000', amount: 170, reason: 'Stock' },
          cashier,
        )
      ).json().data.id;
      await faults([{ operation: 'b2b', probability: 1, error: 'drop' }]);
      const approved = await post(`/api/payouts/${id}/approve`, {}, owner);
      expect(approved.json().data).toMatchObject({
        status: 'unknown',
        resultDescription: expect.stringContaining('M-PESA statement'),
      });
      await faults([]);
      const b2bSent = () =>
        simulator.log
          .list({ kind: 'request' })
          .filter((entry) => entry.kind === 'request' && entry.path.includes('/mpesa/b2b/')).length;
      const sentBefore = b2bSent();
      await recoverAll(86_400);
      expect(b2bSent() - sentBefore).toBe(0);
      expect((await payout(id)).status).toBe('unknown');
    });

    it('a payout M-PESA declines is failed in plain words, and corrected as a new payout once', async () => {
      const id = (
        await post('/api/payouts', { to: '0700020001', amount: 150, reason: 'Short' }, cashier)
      ).json().data.id;
      await post(`/api/payouts/${id}/approve`, {}, owner);
      await settled(id, 'failed');
      expect(await payout(id)).toMatchObject({
        resultCode: '1',
        resultDescription: expect.stringMatching(
          /^The shop’s M-PESA account does not hold enough money/,
        ),
      });
      const told = await database.db
        .selectFrom('webhook_events')
        .select('body')
        .where('type', '=', 'payout.failed')
        .execute();
      expect(told.map((event) => JSON.parse(event.body).data.payout.id)).toContain(id);
      const fixed = await post(
        '/api/payouts',
        { to: '0708374149', amount: 150, reason: 'Short, corrected', corrects: id },
        cashier,
      );
      expect(fixed.statusCode).toBe(201);
      expect(fixed.json().data).toMatchObject({ corrects: id, status: 'proposed' });
      const again = await post(
        '/api/payouts',
        { to: '0708374149', amount: 150, reason: 'Again', corrects: id },
        cashier,
      );
      expect([again.statusCode, again.json().code]).toEqual([409, 'PAYOUT_NOT_CORRECTABLE']);
      const declined = await post(`/api/payouts/${fixed.json().data.id}/decline`, {}, owner);
      expect(declined.json().data).toMatchObject({ status: 'declined', decidedBy: STAFF.owner });
      const decideAgain = await post(
        `/api/payouts/${fixed.json().data.id}/approve`,
        {},
        secondOwner,
      );
      expect([decideAgain.statusCode, decideAgain.json().code]).toEqual([409, 'PAYOUT_DECIDED']);
    });

    it('with PAYOUT_APPROVAL=off an owner’s own proposal is sent at once; a cashier’s still waits', async () => {
      const deps = {
        ...payoutDepsFor({
          config: { ...config, payouts: { ...config.payouts, oneOwnerUnder: Infinity } },
          database,
          now: () => new Date(),
          log: silentLog,
          money: createDarajaClient({ ...config.mpesa, initiator: config.refunds.initiator }),
          callbackUrlFor: callbackUrls(
            CALLBACK_ROUTES,
            config.mpesa.callbackBaseUrl,
            TEST_CALLBACK_SECRET,
          ),
        }),
      };
      const body = { to: '0708374149', amount: 110, reason: 'Own word' };
      const [ownerRow] = await database.db
        .selectFrom('operators')
        .select('id')
        .where('name', '=', STAFF.owner)
        .execute();
      const byOwner = await proposePayout(deps, body, {
        name: STAFF.owner,
        operatorId: ownerRow!.id,
        role: 'owner',
        address: null,
      });
      expect(byOwner).toMatchObject({ status: 'sending', decidedBy: STAFF.owner });
      await settled(byOwner.id);
      const byCashier = await proposePayout(deps, body, {
        name: STAFF.cashier,
        operatorId: 'cashier-id',
        role: 'cashier',
        address: null,
      });
      expect(byCashier.status).toBe('proposed');
    });

    it('refuses over the shop’s limits, and a bad file whole, each with a sentence', async () => {
      const over = await post(
        '/api/payouts',
        { to: '0708374149', amount: 100_001, reason: 'Big' },
        cashier,
      );
      expect([over.statusCode, over.json().code, over.json().message]).toEqual([
        409,
        'PAYOUT_OVER_LIMIT',
        'A payout may be at most 100,000 KES, the shop’s limit for one payout.',
      ]);
      const rows = Array(4).fill('0708374149,90000,Rent').join('\n');
      const daily = await post(
        '/api/payouts/batches',
        { csv: `to,amount,reason\n${rows}` },
        cashier,
      );
      expect([daily.statusCode, daily.json().code]).toEqual([409, 'PAYOUT_DAILY_LIMIT']);
      expect(daily.json().message).toMatch(
        /^The shop pays out at most 300,000 KES a day: [\d,]+ KES is left today\.$/,
      );
      const bad = await post(
        '/api/payouts/batches',
        { csv: 'to,amount,reason\n0708374149,100,Fine\nnot a phone,5,\n' },
        cashier,
      );
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        code: 'PAYOUT_BATCH_REFUSED',
        message: 'The file was not taken: 1 row has a problem. Nothing was proposed.',
        problems: [
          { row: 2, field: 'to', message: 'Please enter a valid Kenyan phone number' },
          {
            row: 2,
            field: 'amount',
            message: 'The amount must be whole shillings, from 10 to 250,000 KES.',
          },
          {
            row: 2,
            field: 'reason',
            message: 'Give the reason for the payout: 2 to 100 characters.',
          },
        ],
      });
      const invalid = await post(
        '/api/payouts',
        { to: '0708374149', amount: 'ten', reason: 'x' },
        cashier,
      );
      expect([invalid.statusCode, invalid.json().code, invalid.json().field]).toEqual([
        400,
        'VALIDATION_ERROR',
        'amount',
      ]);
      const overlong = await post(
        '/api/payouts',
        { to: '0'.repeat(65), amount: 10, reason: 'ok' },
        cashier,
      );
      expect(overlong.statusCode).toBe(400);
    });
  });
}
