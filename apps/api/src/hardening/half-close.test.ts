/**
 * A client that sends its whole request and then half-closes the connection (a TCP FIN: "I have
 * nothing more to send", as some HTTP clients and proxies do) still gets its answer. An attack
 * found the prompt sent and the payment made, but the answer, with its `transactionId`, never
 * written: Node's HTTP server ended such a socket as soon as the FIN arrived.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import type { DarajaClient } from '../daraja/daraja-client.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { TEST_CALLBACK_SECRET, testConfig } from '../test/test-app.ts';
import { closedWithin, connect, firstResponse, listenLocally } from '../test/raw-http.ts';

/** A Daraja that accepts every push after a short while, as the real one does. */
const slowDaraja: DarajaClient = {
  stkPush: async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return {
      merchantRequestId: 'm-1',
      checkoutRequestId: 'ws_CO_half_close_1',
      responseCode: '0',
      responseDescription: 'Success. Request accepted for processing',
      customerMessage: 'Success. Request accepted for processing',
    };
  },
  stkQuery: async () => ({ state: 'pending', message: '' }),
};

for (const dialect of DIALECTS) {
  describe(`a client that half-closes after its request (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;

    afterEach(async () => {
      await app.close();
      await database.destroy();
    });

    it('is answered, with the payment’s transactionId, and then the connection is closed', async () => {
      database = await createTestDatabase(dialect);
      app = await buildApp({
        config: testConfig({}),
        callbackSecret: TEST_CALLBACK_SECRET,
        database,
        daraja: slowDaraja,
        logger: false,
      });
      const port = await listenLocally(app);
      const body = JSON.stringify({ phoneNumber: '0712345678', amount: 10 });
      const connection = connect(port);
      connection.socket.write(
        'POST /api/mpesa/stkpush HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      connection.socket.end();

      expect(await closedWithin(connection, 5000)).toBeLessThan(5000);
      const answer = firstResponse(connection.received());
      expect(answer.status).toBe(200);
      const { transactionId } = answer.body as { transactionId: string };
      const page = await app.inject({ url: `/api/mpesa/transactions/${transactionId}` });
      expect(page.json()).toMatchObject({ data: { _id: transactionId, status: 'pending' } });
    });
  });
}
