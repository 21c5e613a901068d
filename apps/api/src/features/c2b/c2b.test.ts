/**
 * Till and paybill payments from end to end over HTTP, against the simulator as Daraja
 * (docs/daraja-protocol.md §M3.6, §M5.1), on each database: the URLs registered at start-up, a
 * payment from the simulator's phone in the history, duplicates and forgeries inert, validation
 * refusing what it should, and a dropped confirmation found by its receipt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { TEST_CALLBACK_SECRET, createTestApp } from '../../test/test-app.ts';
import { startSimulator, type RunningSimulator } from '../../test/simulator.ts';
import { freePort } from '../../test/ports.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { listCallbacksFor } from '../payments/transactions.repository.ts';

const SHORTCODE = '600100';
const CONFIRMATION_PATH = `/api/c2b/${TEST_CALLBACK_SECRET}/confirmation`;
const TAKEN = { ResultCode: 0, ResultDesc: 'Success' };

/** The API listening on a port of its own, the simulator as its Daraja. */
async function listeningApp(
  database: TestDatabase,
  simulator: RunningSimulator,
  env: Record<string, string> = {},
) {
  const port = await freePort();
  const { app } = await createTestApp({
    database,
    registerC2b: true,
    env: {
      MPESA_BASE_URL: simulator.url,
      PORT: String(port),
      MPESA_CALLBACK_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
  });
  await app.listen({ host: '127.0.0.1', port });
  return { app, url: `http://127.0.0.1:${port}` };
}

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let waited = 0; waited < 8000; waited += 50) {
    const found = await read();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

for (const dialect of DIALECTS) {
  describe(`till and paybill payments (${dialect})`, () => {
    let simulator: RunningSimulator;
    let database: TestDatabase;
    let app: FastifyInstance;
    let appUrl: string;

    beforeAll(async () => {
      simulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '20' });
      database = await createTestDatabase(dialect);
      ({ app, url: appUrl } = await listeningApp(database, simulator));
    });
    afterAll(async () => {
      await app.close();
      await simulator.close();
      await database.destroy();
    });

    const sim = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${simulator.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return answer.json();
    };
    const pay = (msisdn: string, amount: number, account?: string) =>
      sim('POST', '/_sim/c2b/pay', {
        msisdn,
        shortcode: SHORTCODE,
        amount,
        pin: '1234',
        ...(account === undefined ? {} : { account }),
      }) as Promise<{ transId: string }>;
    const byReceipt = (receipt: string) =>
      database.db
        .selectFrom('transactions')
        .selectAll()
        .where('mpesa_receipt_number', '=', receipt)
        .execute();
    const recorded = (receipt: string) =>
      until(async () => (await byReceipt(receipt))[0], `payment ${receipt}`);
    const stage = (transId: string) =>
      until(async () => {
        const payment = (await sim('GET', `/_sim/c2b/payments/${transId}`)) as { stage: string };
        return ['completed', 'cancelled', 'failed'].includes(payment.stage)
          ? payment.stage
          : undefined;
      }, `the simulator to end ${transId}`);

    /** The simulator's registration of the till, once its confirmation URL is on `port`. */
    const registeredOn = (port: number) =>
      until(async () => {
        const { shortcodes } = (await sim('GET', '/_sim/c2b')) as {
          shortcodes: { shortcode: string; registration: { confirmationUrl: string } | null }[];
        };
        const registration = shortcodes.find((one) => one.shortcode === SHORTCODE)?.registration;
        return registration?.confirmationUrl.startsWith(`http://127.0.0.1:${port}/`)
          ? registration
          : undefined;
      }, `the registration on port ${port}`);

    it('registers the C2B URLs with Daraja once listening', async () => {
      const registration = await registeredOn(Number(new URL(appUrl).port));
      expect(registration).toMatchObject({
        version: 'v2',
        responseType: 'Completed',
        confirmationUrl: expect.stringMatching(/\/api\/c2b\/.+\/confirmation$/),
      });
    });

    it('records a till payment from the phone’s menu with its receipt, payer and masked number', async () => {
      const { transId } = await pay('0708374149', 120);
      const row = await recorded(transId);
      expect(row).toMatchObject({
        status: 'success',
        channel: 'till',
        amount: 120,
        reference: '',
        payer_name: 'John Doe',
        payer_msisdn: '2547 ***** 149',
        phone_number: '2547 ***** 149',
        shortcode: SHORTCODE,
      });
      const { data } = (await app.inject(`/api/mpesa/transactions/${row.id}`)).json();
      expect(data).toMatchObject({
        channel: 'till',
        payerName: 'John Doe',
        mpesaReceiptNumber: transId,
      });
      const events = await database.db
        .selectFrom('transaction_events')
        .select(['kind', 'source', 'to_status'])
        .where('transaction_id', '=', row.id)
        .execute();
      expect(events).toEqual([{ kind: 'c2b_confirmed', source: 'c2b', to_status: 'success' }]);
      // The timeline says where it was paid and its receipt, and keeps no payer's name or number.
      const timeline = await app.inject(`/api/mpesa/transactions/${row.id}/events`);
      expect(timeline.json().data).toMatchObject([
        { title: `Paid to till ${SHORTCODE} from the M-PESA menu`, detail: `Receipt ${transId}.` },
      ]);
      expect(timeline.body).not.toMatch(/John|Doe|\*\*\*\*\*/);
      // The merchant's view lists the confirmation, by the payment it was applied to.
      const callbacks = await listCallbacksFor(database.db, row);
      expect(callbacks.map((callback) => callback.outcome)).toEqual(['applied']);
      expect(JSON.parse(callbacks[0]!.raw_body)).toMatchObject({ TransID: transId });
    });

    it('records a paybill payment with the account number the customer typed', async () => {
      const { transId } = await pay('0705912645', 300, 'INV-42');
      expect(await recorded(transId)).toMatchObject({
        channel: 'paybill',
        reference: 'INV-42',
        amount: 300,
        payer_name: 'NICHOLAS JOHN SONGOK',
      });
    });

    it('records a confirmation delivered twice, or twice at once, as one payment', async () => {
      const { transId } = await pay('0708374149', 75);
      await recorded(transId);
      const [kept] = await database.db
        .selectFrom('callbacks')
        .select('raw_body')
        .where('kind', '=', 'c2b-confirmation')
        .where('raw_body', 'like', `%${transId}%`)
        .execute();
      const deliver = () =>
        app.inject({
          method: 'POST',
          url: CONFIRMATION_PATH,
          headers: { 'content-type': 'application/json' },
          payload: kept!.raw_body,
        });
      const answers = [await deliver(), ...(await Promise.all([deliver(), deliver()]))];
      for (const answer of answers) expect(answer.json()).toEqual(TAKEN);
      expect(await byReceipt(transId)).toHaveLength(1);
      const outcomes = await database.db
        .selectFrom('callbacks')
        .select('outcome')
        .where('raw_body', '=', kept!.raw_body)
        .execute();
      expect(outcomes.map((row) => row.outcome).sort()).toEqual([
        'applied',
        'duplicate',
        'duplicate',
        'duplicate',
      ]);
    });

    it('keeps odd and overlong bodies without a 500, and records only real payments', async () => {
      const base = {
        TransactionType: 'Buy Goods',
        TransID: 'UKQ1ODD001',
        TransTime: '20261127101500',
        TransAmount: '10.00',
        BusinessShortCode: SHORTCODE,
        BillRefNumber: '',
        MSISDN: '2547 ***** 001',
        FirstName: 'A',
        MiddleName: '',
        LastName: 'B',
      };
      const odd: [unknown, number][] = [
        ['', 400],
        ['not json', 400],
        ['[]', 400],
        ['null', 400],
        [{ ...base, TransID: 'X'.repeat(40) }, 400],
        [{ ...base, TransID: 'UKQ1ODD002', TransAmount: '10.50' }, 400],
        [{ ...base, TransID: 'UKQ1ODD003', TransAmount: -5 }, 400],
        [{ ...base, TransID: 'UKQ1ODD004', BusinessShortCode: '999999' }, 200],
      ];
      for (const [body, status] of odd) {
        const answer = await app.inject({
          method: 'POST',
          url: CONFIRMATION_PATH,
          headers: { 'content-type': 'application/json' },
          payload: typeof body === 'string' ? body : JSON.stringify(body),
        });
        expect(answer.statusCode, JSON.stringify(body)).toBe(status);
      }
      for (const receipt of ['UKQ1ODD002', 'UKQ1ODD003', 'UKQ1ODD004']) {
        expect(await byReceipt(receipt)).toEqual([]);
      }
      // A real payment with overlong, control-laden names is recorded, its text cut to fit.
      const long = {
        ...base,
        TransID: 'UKQ1ODD005',
        FirstName: `Wan\u0000jiku${'x'.repeat(500)}`,
        BillRefNumber: 'R'.repeat(300),
        MSISDN: 'f'.repeat(64),
      };
      const answer = await app.inject({
        method: 'POST',
        url: CONFIRMATION_PATH,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(long),
      });
      expect(answer.json()).toEqual(TAKEN);
      const [row] = await byReceipt('UKQ1ODD005');
      expect(row).toMatchObject({
        amount: 10,
        phone_number: `#${'f'.repeat(12)}`,
        transaction_date: '2026-11-27T07:15:00.000Z',
      });
      expect(row!.payer_name!.startsWith('Wan jiku')).toBe(true);
      expect(Array.from(row!.payer_name!).length).toBeLessThanOrEqual(200);
      expect(row!.reference).toHaveLength(100);
    });

    it('records nothing from a forged confirmation (a wrong secret, or off the allow-list)', async () => {
      const body = JSON.stringify({
        TransactionType: 'Pay Bill',
        TransID: 'UKQ1FORGED',
        TransAmount: '5000',
        BusinessShortCode: SHORTCODE,
      });
      const wrongSecret = await app.inject({
        method: 'POST',
        url: `/api/c2b/${'w'.repeat(TEST_CALLBACK_SECRET.length)}/confirmation`,
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      expect(wrongSecret.statusCode).toBe(404);
      const guarded = await createTestApp({
        database,
        env: { MPESA_BASE_URL: simulator.url, MPESA_CALLBACK_ALLOWED_IPS: '196.201.214.200' },
      });
      const offList = await guarded.app.inject({
        method: 'POST',
        url: CONFIRMATION_PATH,
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      await guarded.app.close();
      expect(offList.statusCode).toBe(403);
      expect(await byReceipt('UKQ1FORGED')).toEqual([]);
    });

    it('finds a payment whose confirmation was dropped by the receipt on the SMS', async () => {
      await sim('PUT', '/_sim/numbers/0711222333/next', {
        api: 'c2b',
        outcome: '0',
        fault: { drop: true },
      });
      const { transId } = await pay('0711222333', 640);
      expect(await stage(transId)).toBe('completed');
      expect(await byReceipt(transId)).toEqual([]);

      const asked = await app.inject({
        method: 'POST',
        url: '/api/mpesa/receipt-checks',
        payload: { receipt: transId.toLowerCase() },
      });
      expect(asked.statusCode, asked.body).toBe(200);
      const { id } = asked.json().data;
      const check = await until(async () => {
        const { data } = (await app.inject(`/api/mpesa/receipt-checks/${id}`)).json();
        return data.status === 'asked' ? undefined : data;
      }, 'the receipt check');
      const [row] = await byReceipt(transId);
      expect(check).toMatchObject({ status: 'found', receipt: transId, transactionId: row!.id });
      expect(row).toMatchObject({ channel: 'till', amount: 640, status: 'success' });
      const [event] = await database.db
        .selectFrom('transaction_events')
        .select('kind')
        .where('transaction_id', '=', row!.id)
        .execute();
      expect(event).toEqual({ kind: 'c2b_found' });
      const timeline = await app.inject(`/api/mpesa/transactions/${row!.id}/events`);
      expect(timeline.json().data).toMatchObject([
        { detail: `Receipt ${transId}. Paid to till ${SHORTCODE}.` },
      ]);

      // Asked again: found at once, nothing recorded twice.
      const again = await app.inject({
        method: 'POST',
        url: '/api/mpesa/receipt-checks',
        payload: { receipt: transId },
      });
      expect(again.json().data).toMatchObject({ status: 'found', transactionId: row!.id });
      expect(await byReceipt(transId)).toHaveLength(1);
    });

    it('says a receipt M-PESA does not know was not found, and refuses one that is no receipt', async () => {
      const asked = await app.inject({
        method: 'POST',
        url: '/api/mpesa/receipt-checks',
        payload: { receipt: 'UZZ9NOPE00' },
      });
      const { id } = asked.json().data;
      const check = await until(async () => {
        const { data } = (await app.inject(`/api/mpesa/receipt-checks/${id}`)).json();
        return data.status === 'asked' ? undefined : data;
      }, 'the receipt check');
      expect(check).toMatchObject({ status: 'not_found', resultCode: 'R000002' });
      const bad = await app.inject({
        method: 'POST',
        url: '/api/mpesa/receipt-checks',
        payload: { receipt: 'DROP TABLE' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      const missing = await app.inject('/api/mpesa/receipt-checks/nothing-here');
      expect(missing.json()).toMatchObject({ code: 'RECEIPT_CHECK_NOT_FOUND' });
    });

    describe('with validation on', () => {
      let validating: FastifyInstance;

      beforeAll(async () => {
        let url: string;
        ({ app: validating, url } = await listeningApp(database, simulator, {
          MPESA_C2B_VALIDATION: 'invoice',
          C2B_MAX_AMOUNT: '1000',
        }));
        // Its registration replaces the first app's, as a second one does in the sandbox.
        await registeredOn(Number(new URL(url).port));
        await sim('PUT', `/_sim/c2b/shortcodes/${SHORTCODE}`, { externalValidation: true });
        await database.db
          .insertInto('transactions')
          .values(
            storedPayment('invoice-7', new Date().toISOString(), {
              status: 'pending',
              reference: 'INV-7',
            }),
          )
          .execute();
      });
      afterAll(async () => {
        await validating.close();
      });

      it('refuses an amount out of range and an account number no invoice has; takes an open invoice', async () => {
        const tooMuch = await pay('0708374149', 5000, 'INV-7');
        const unknown = await pay('0708374149', 50, 'INV-999');
        const good = await pay('0708374149', 50, 'INV-7');
        expect(await stage(tooMuch.transId)).toBe('cancelled');
        expect(await stage(unknown.transId)).toBe('cancelled');
        expect(await stage(good.transId)).toBe('completed');
        const codes = await Promise.all(
          [tooMuch, unknown].map(
            async ({ transId }) =>
              (
                (await sim('GET', `/_sim/c2b/payments/${transId}`)) as {
                  validation: { resultCode: string };
                }
              ).validation.resultCode,
          ),
        );
        expect(codes).toEqual(['C2B00013', 'C2B00012']);
        expect(await byReceipt(tooMuch.transId)).toEqual([]);
        expect(await byReceipt(unknown.transId)).toEqual([]);
        expect(await recorded(good.transId)).toMatchObject({ reference: 'INV-7', amount: 50 });
      });
    });
  });
}
