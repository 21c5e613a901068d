import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { createDarajaClient } from './daraja/daraja-client.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from './test/test-db.ts';
import { TEST_CALLBACK_SECRET, testConfig } from './test/test-app.ts';
import { startSimulator, type RunningSimulator } from './test/simulator.ts';
import { successCallback } from './test/callbacks.ts';

for (const dialect of DIALECTS) {
  describe(`the logs (${dialect})`, () => {
    let simulator: RunningSimulator;
    let database: TestDatabase;

    beforeAll(async () => {
      simulator = await startSimulator();
      database = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await simulator.close();
      await database.destroy();
    });

    it('hold no secrets and no full phone numbers, even at debug level', async () => {
      const stream = new PassThrough();
      let lines = '';
      stream.on('data', (chunk: Buffer) => (lines += chunk.toString()));
      const config = testConfig({ MPESA_BASE_URL: simulator.url, LOG_LEVEL: 'debug' });
      const app = await buildApp({
        config,
        callbackSecret: TEST_CALLBACK_SECRET,
        database,
        daraja: createDarajaClient({ ...config.mpesa, initiator: config.refunds.initiator }),
        logStream: stream,
      });
      const payment = await app.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        payload: { phoneNumber: '0712345678', amount: 10 },
      });
      const { checkoutRequestId } = payment.json();
      await app.inject({
        method: 'POST',
        url: `/api/mpesa/callback/${TEST_CALLBACK_SECRET}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(
          successCallback(checkoutRequestId, { amount: 10, phoneNumber: '254712345678' }),
        ),
      });
      await app.inject({ method: 'POST', url: '/api/mpesa/callback/wrong-guess', payload: {} });
      // The history searched by the payer's number, in the forms a merchant types it.
      for (const url of [
        '/api/mpesa/transactions?q=0712345678',
        '/api/mpesa/transactions?status=success&q=%2B254712345678&limit=5',
        '/api/mpesa/transactions/export?%71=254712345678',
      ]) {
        await app.inject({ method: 'GET', url });
      }
      await app.close();

      expect(lines).toContain('stk push accepted');
      expect(lines).toContain('/api/mpesa/callback/[redacted]');
      expect(lines).toContain('/api/mpesa/transactions?status=success&q=[redacted]&limit=5');
      for (const secret of [
        TEST_CALLBACK_SECRET,
        'wrong-guess',
        config.mpesa.passkey,
        config.mpesa.consumerSecret,
      ]) {
        expect(lines, secret).not.toContain(secret);
      }
      // Daraja's CheckoutRequestID ends with the subscriber number, so ids are logged masked too.
      expect(lines).not.toMatch(/0?712345678/);
    });
  });
}
