/** Daraja down, slow, or answering 5xx: nothing is lost and nothing is guessed. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { CALLBACK_PATH, createTestApp } from '../../test/test-app.ts';
import { startFakeDaraja, type FakeDaraja } from '../../test/fake-daraja.ts';
import { freePort } from '../../test/ports.ts';
import { successCallback } from '../../test/callbacks.ts';
import { reconcileOnce } from '../../test/reconcile.ts';

for (const dialect of DIALECTS) {
  describe(`when Daraja misbehaves (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let fake: FakeDaraja | undefined;
    let clock: number;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      clock = Date.now();
    });
    afterEach(async () => {
      await app?.close();
      await fake?.close();
      fake = undefined;
      await database.destroy();
    });

    async function build(baseUrl: string) {
      ({ app } = await createTestApp({
        database,
        env: { MPESA_BASE_URL: baseUrl, DARAJA_TIMEOUT_MS: '300' },
        now: () => new Date(clock),
      }));
    }
    const pay = (amount = 10, phoneNumber = '0712345678') =>
      app.inject({ method: 'POST', url: '/api/mpesa/stkpush', payload: { phoneNumber, amount } });
    const only = async () => {
      const { data } = (await app.inject({ url: '/api/mpesa/transactions' })).json();
      expect(data).toHaveLength(1);
      return data[0];
    };

    it('down: says no request was sent, marks the payment failed, and frees the phone', async () => {
      await build(`http://127.0.0.1:${await freePort()}`);
      const answer = await pay();
      expect(answer.statusCode).toBe(503);
      const failed = await only();
      expect(answer.json()).toEqual({
        success: false,
        code: 'MPESA_UNREACHABLE',
        message:
          'We could not reach M-PESA, so no payment request was sent. Please try again in a few minutes.',
        transactionId: failed._id,
      });
      expect(failed).toMatchObject({
        status: 'failed',
        responseDescription: 'M-PESA could not be reached; no payment request was sent',
      });
      expect((await pay()).statusCode).toBe(503); // not 429: the phone was freed
    });

    it('slow: keeps the payment pending instead of guessing, and recovers it from a late callback', async () => {
      fake = await startFakeDaraja({ kind: 'hang' });
      await build(fake.url);
      const answer = await pay(75);
      expect(answer.statusCode).toBe(504);
      const pending = await only();
      // The payment it saved, which will settle on its own, can be opened.
      expect(answer.json()).toMatchObject({
        success: false,
        code: 'MPESA_NO_ANSWER',
        transactionId: pending._id,
      });
      expect(pending).toMatchObject({ status: 'pending', checkoutRequestId: null });

      // The prompt did reach the phone and the payer paid: the success callback finds the payment.
      const callback = successCallback('ws_CO_22112026101010123712345678', {
        amount: 75,
        phoneNumber: '254712345678',
      });
      await app.inject({
        method: 'POST',
        url: CALLBACK_PATH,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(callback),
      });
      expect(await only()).toMatchObject({
        status: 'success',
        checkoutRequestId: 'ws_CO_22112026101010123712345678',
        mpesaReceiptNumber: 'UF1E26WQJZ',
      });
    });

    it('slow, and no callback ever: after the give-up time the outcome is unknown, never unpaid', async () => {
      fake = await startFakeDaraja({ kind: 'hang' });
      await build(fake.url);
      await pay();
      const reconcile = () =>
        reconcileOnce(database, {
          darajaUrl: fake!.url,
          now: () => new Date(clock),
          env: { DARAJA_TIMEOUT_MS: '300' },
        });

      clock += 100_000;
      await reconcile();
      expect((await only()).status).toBe('pending');
      clock += 600_000;
      await reconcile();
      expect(await only()).toMatchObject({
        status: 'unknown',
        responseDescription: expect.stringMatching(
          /^M-PESA never confirmed the payment request within 10 minutes\. Whether the payer paid is not known: check the M-PESA statement/,
        ),
      });
    });

    it('5xx without Daraja’s envelope: the outcome is unknown, so the payment stays pending', async () => {
      fake = await startFakeDaraja({
        kind: 'answer',
        status: 502,
        body: '<html>Bad Gateway</html>',
        contentType: 'text/html',
      });
      await build(fake.url);
      expect((await pay()).statusCode).toBe(504);
      expect((await only()).status).toBe('pending');
    });

    it('5xx with Daraja’s envelope: a refusal, so the payment fails with Daraja’s words', async () => {
      fake = await startFakeDaraja({
        kind: 'answer',
        status: 500,
        body: JSON.stringify({
          requestId: 'x',
          errorCode: '500.003.1001',
          errorMessage: 'Internal Server Error',
        }),
      });
      await build(fake.url);
      const answer = await pay();
      expect(answer.statusCode).toBe(503);
      expect(answer.json().message).toBe(
        'M-PESA is busy right now. Please try again in a few minutes.',
      );
      expect(await only()).toMatchObject({
        status: 'failed',
        responseDescription: 'Internal Server Error',
      });
    });
  });
}
