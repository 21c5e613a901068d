import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { CALLBACK_PATH, createTestApp } from '../../test/test-app.ts';
import { startSimulator, type RunningSimulator } from '../../test/simulator.ts';
import { useApiWithSimulator } from '../../test/world.ts';
import { freePort } from '../../test/ports.ts';
import { failureCallback, successCallback } from '../../test/callbacks.ts';
import { fixtureText } from '../../test/fixtures.ts';

const ACCEPTED = { ResultCode: 0, ResultDesc: 'Accepted' };

for (const dialect of DIALECTS) {
  describe(`the Daraja result callback (${dialect})`, () => {
    const world = useApiWithSimulator(dialect);

    /** A pending transaction whose callback the simulator will not send by itself. */
    async function pendingPayment(phoneNumber = '0712345678', amount = 450) {
      const body = (
        await world.app.inject({
          method: 'POST',
          url: '/api/mpesa/stkpush',
          payload: { phoneNumber, amount },
        })
      ).json();
      return {
        id: body.transactionId as string,
        checkoutRequestId: body.checkoutRequestId as string,
      };
    }

    const deliver = (payload: unknown, path = CALLBACK_PATH) =>
      world.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/json' },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });

    const transaction = async (id: string) =>
      (await world.app.inject({ url: `/api/mpesa/transactions/${id}` })).json().data;

    const callbacks = () =>
      world.database.db
        .selectFrom('callbacks')
        .select(['outcome', 'raw_body', 'checkout_request_id'])
        .orderBy('received_at')
        .orderBy('id')
        .execute();

    it('marks a paid transaction success with its receipt and Nairobi transaction date', async () => {
      const { id, checkoutRequestId } = await pendingPayment();
      const response = await deliver(
        successCallback(checkoutRequestId, { amount: 450, phoneNumber: '254712345678' }),
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(ACCEPTED);
      expect(await transaction(id)).toMatchObject({
        status: 'success',
        resultCode: '0',
        mpesaReceiptNumber: 'UF1E26WQJZ',
        transactionDate: '2026-06-14T16:36:04.000Z',
        responseDescription: 'The service request is processed successfully.',
      });
    });

    it.each([
      [1032, 'Request Cancelled by user.', 'cancelled'],
      [1037, 'DS timeout user cannot be reached.', 'timeout'],
      [1019, 'Transaction has expired', 'timeout'],
      [1, 'The balance is insufficient for the transaction.', 'failed'],
      [2001, 'The initiator information is invalid.', 'failed'],
      ['SFC_IC0003', 'The operator does not exist.', 'failed'],
    ])('maps ResultCode %j to %s', async (code, desc, status) => {
      const { id, checkoutRequestId } = await pendingPayment();
      expect((await deliver(failureCallback(checkoutRequestId, code, desc))).json()).toEqual(
        ACCEPTED,
      );
      expect(await transaction(id)).toMatchObject({
        status,
        resultCode: String(code),
        responseDescription: desc,
        mpesaReceiptNumber: null,
      });
    });

    it('keeps every callback body exactly as it arrived', async () => {
      const { checkoutRequestId } = await pendingPayment();
      const raw = fixtureText('callback-cancelled.json').replace(
        'ws_CO_21072024125243250722943992',
        checkoutRequestId,
      );
      await deliver(raw);
      expect(await callbacks()).toEqual([
        { outcome: 'applied', raw_body: raw, checkout_request_id: checkoutRequestId },
      ]);
    });

    it('changes nothing on a duplicate, and records it as one', async () => {
      const { id, checkoutRequestId } = await pendingPayment();
      const body = successCallback(checkoutRequestId, { amount: 450, phoneNumber: '254712345678' });
      await deliver(body);
      const first = await transaction(id);
      expect((await deliver(body)).json()).toEqual(ACCEPTED);
      expect(await transaction(id)).toEqual(first);
      expect((await callbacks()).map((c) => c.outcome)).toEqual(['applied', 'duplicate']);
    });

    it('never downgrades a success, and flags the contradicting callback', async () => {
      const { id, checkoutRequestId } = await pendingPayment();
      await deliver(
        successCallback(checkoutRequestId, { amount: 450, phoneNumber: '254712345678' }),
      );
      await deliver(failureCallback(checkoutRequestId, 1032, 'Request Cancelled by user.'));
      expect(await transaction(id)).toMatchObject({
        status: 'success',
        mpesaReceiptNumber: 'UF1E26WQJZ',
      });
      expect((await callbacks()).map((c) => c.outcome)).toEqual(['applied', 'contradiction']);
      const [row] = await world.database.db
        .selectFrom('transactions')
        .select('flagged_reason')
        .where('id', '=', id)
        .execute();
      expect(row?.flagged_reason).toBe(
        'M-PESA sent contradicting results for this request: 0 (success), then 1032 (cancelled)',
      );
    });

    it('keeps a callback for an unknown CheckoutRequestID as an orphan and still answers 200', async () => {
      const response = await deliver(fixtureText('callback-success-docs.json'));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(ACCEPTED);
      expect(await callbacks()).toMatchObject([
        { outcome: 'orphan', checkout_request_id: 'ws_CO_191220191020363925' },
      ]);
    });

    it('never marks success when the amount or phone does not match our record', async () => {
      const { id, checkoutRequestId } = await pendingPayment('0712345678', 450);
      await deliver(successCallback(checkoutRequestId, { amount: 1, phoneNumber: '254712345678' }));
      expect((await transaction(id)).status).not.toBe('success');
      const other = await pendingPayment('0722000000', 450);
      await deliver(
        successCallback(other.checkoutRequestId, { amount: 450, phoneNumber: '254799999999' }),
      );
      expect((await transaction(other.id)).status).not.toBe('success');
      expect((await callbacks()).map((c) => c.outcome)).toEqual(['mismatch', 'mismatch']);
    });

    it('refuses a callback with the wrong secret and changes nothing', async () => {
      const { id, checkoutRequestId } = await pendingPayment();
      const forged = successCallback(checkoutRequestId, {
        amount: 450,
        phoneNumber: '254712345678',
      });
      for (const path of [
        '/api/mpesa/callback/guess',
        '/api/mpesa/callback/',
        `${CALLBACK_PATH}x`,
      ]) {
        const response = await deliver(forged, path);
        expect(response.statusCode).toBe(404);
      }
      expect((await transaction(id)).status).toBe('pending');
      expect(await callbacks()).toEqual([]);
    });

    it('records a body with NUL characters, which PostgreSQL text cannot hold, and answers plainly', async () => {
      const { checkoutRequestId } = await pendingPayment();
      const nulInDesc = JSON.stringify(
        failureCallback(checkoutRequestId, 1032, 'Cancelled\u0000by user'),
      );
      expect((await deliver(nulInDesc)).statusCode).toBe(200);
      const literalNul = `{"Body":\u0000}`;
      expect((await deliver(literalNul)).statusCode).toBe(400);
      const rows = await callbacks();
      expect(rows.map((row) => row.outcome)).toEqual(['applied', 'invalid']);
      expect(rows[1]?.raw_body).toBe('{"Body":\\u0000}');
    });

    it('refuses a body over CALLBACK_BODY_LIMIT_BYTES without recording it', async () => {
      const response = await deliver(JSON.stringify({ padding: 'x'.repeat(70_000) }));
      expect(response.statusCode).toBe(413);
      expect(await callbacks()).toEqual([]);
    });

    it('records a body that is not a Daraja callback and answers 400', async () => {
      for (const body of ['{not json', '{"Body":{}}', '[]']) {
        const response = await deliver(body);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ ResultCode: 1 });
      }
      expect((await callbacks()).map((c) => [c.outcome, c.raw_body])).toEqual([
        ['invalid', '{not json'],
        ['invalid', '{"Body":{}}'],
        ['invalid', '[]'],
      ]);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`a payment from end to end over HTTP (${dialect})`, () => {
    let simulator: RunningSimulator;
    let database: TestDatabase;
    let app: FastifyInstance;

    beforeAll(async () => {
      simulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '100' });
      database = await createTestDatabase(dialect);
      const port = await freePort();
      ({ app } = await createTestApp({
        database,
        env: {
          MPESA_BASE_URL: simulator.url,
          PORT: String(port),
          MPESA_CALLBACK_URL: `http://127.0.0.1:${port}`,
        },
      }));
      await app.listen({ host: '127.0.0.1', port });
    });
    afterAll(async () => {
      await app.close();
      await simulator.close();
      await database.destroy();
    });

    async function payAndWait(phoneNumber: string) {
      const { transactionId } = (
        await app.inject({
          method: 'POST',
          url: '/api/mpesa/stkpush',
          payload: { phoneNumber, amount: 20 },
        })
      ).json();
      for (let i = 0; i < 100; i++) {
        const { data } = (
          await app.inject({ url: `/api/mpesa/transactions/${transactionId}` })
        ).json();
        if (data.status !== 'pending') return data;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the payment stayed pending');
    }

    it('ends in success for 0700000000, with the simulator’s receipt', async () => {
      const data = await payAndWait('0700000000');
      expect(data).toMatchObject({
        status: 'success',
        resultCode: '0',
        mpesaReceiptNumber: expect.stringMatching(/^[A-Z0-9]{10}$/),
      });
      const [prompt] = simulator.prompts.list({ phoneNumber: '254700000000' });
      expect(data.mpesaReceiptNumber).toBe(prompt?.receiptNumber);
      // The simulator logs the delivery once our answer reaches it, just after the update.
      await expect.poll(() => simulator.log.list({ kind: 'callback' })[0]).toBeDefined();
      const [delivery] = simulator.log.list({ kind: 'callback' });
      expect(delivery).toMatchObject({ status: 200, responseBody: JSON.stringify(ACCEPTED) });
    });

    it.each([
      ['0700001032', 'cancelled', '1032'],
      ['0700001037', 'timeout', '1037'],
      ['0700001019', 'timeout', '1019'],
      ['0700000001', 'failed', '1'],
      ['0700002001', 'failed', '2001'],
      ['0700000017', 'failed', '17'],
    ])('ends %s as %s', async (phone, status, code) => {
      expect(await payAndWait(phone)).toMatchObject({ status, resultCode: code });
    });
  });
}
