import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/test-db.ts';
import { createTestApp } from '../../test/test-app.ts';
import { useApiWithSimulator } from '../../test/world.ts';
import type { DarajaClient } from '../../daraja/daraja-client.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';

for (const dialect of DIALECTS) {
  describe(`payments API (${dialect})`, () => {
    const world = useApiWithSimulator(dialect);

    const pay = (payload: unknown, headers: Record<string, string> = {}) =>
      world.app.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        payload: payload as object,
        headers,
      });

    it('starts a payment: saves it as pending and prompts the phone through Daraja', async () => {
      const response = await pay({
        phoneNumber: '0708 374 149',
        amount: '250',
        reference: 'Invoice 2026-0042 for Wanjiku',
        description: 'School fees, second term',
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toEqual({
        success: true,
        message: 'STK Push initiated successfully',
        transactionId: expect.any(String),
        checkoutRequestId: expect.stringMatching(/^ws_CO_\d{17}708374149$/),
        customerMessage: 'Success. Request accepted for processing',
      });

      const [prompt] = world.simulator.prompts.list();
      expect(prompt).toMatchObject({
        checkoutRequestId: body.checkoutRequestId,
        phoneNumber: '254708374149',
        partyA: '254708374149',
        amount: 250,
        accountReference: 'Invoice 2026',
        transactionDesc: 'School fees,',
      });
      expect(prompt?.callbackUrl).toMatch(
        /\/api\/mpesa\/callback\/test-callback-secret-0123456789$/,
      );

      const detail = await world.app.inject({
        url: `/api/mpesa/transactions/${body.transactionId}`,
      });
      expect(detail.statusCode).toBe(200);
      expect(detail.json()).toEqual({
        success: true,
        data: {
          _id: body.transactionId,
          reference: 'Invoice 2026-0042 for Wanjiku',
          phoneNumber: '254708374149',
          amount: 250,
          description: 'School fees, second term',
          status: 'pending',
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          updatedAt: expect.any(String),
          merchantRequestId: prompt?.merchantRequestId,
          checkoutRequestId: body.checkoutRequestId,
          resultCode: null,
          mpesaReceiptNumber: null,
          transactionDate: null,
          responseDescription: 'Success. Request accepted for processing',
          channel: 'prompt',
          payerName: null,
          linkId: null,
        },
      });
    });

    it('fills the default reference and description', async () => {
      const { transactionId } = (
        await pay({ phoneNumber: '0712345678', amount: 5, reference: '' })
      ).json();
      const { data } = (
        await world.app.inject({ url: `/api/mpesa/transactions/${transactionId}` })
      ).json();
      expect(data).toMatchObject({ reference: 'Payment', description: 'Payment for services' });
    });

    it('saves the transaction before Daraja is called', async () => {
      let seenWhilePushing: unknown;
      const daraja: DarajaClient = {
        stkPush: async () => {
          seenWhilePushing = await world.database.db
            .selectFrom('transactions')
            .select(['status', 'amount'])
            .execute();
          throw new DarajaError('rejected', 'busy', {
            httpStatus: 500,
            errorCode: '500.003.02',
            errorMessage: 'System is busy. Please try again in few minutes.',
          });
        },
        stkQuery: async () => ({ state: 'pending', message: '' }),
      };
      const own = await createTestApp({ database: world.database, daraja });
      await own.app.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        payload: { phoneNumber: '0712345678', amount: 7 },
      });
      await own.app.close();
      expect(seenWhilePushing).toEqual([{ status: 'pending', amount: 7 }]);
    });

    it('keeps the words of a callback that raced ahead of the acknowledgement', async () => {
      const daraja: DarajaClient = {
        stkPush: async () => {
          // The result arrives (and is applied) before the acknowledgement is recorded.
          await world.database.db
            .updateTable('transactions')
            .set({
              status: 'success',
              response_description: 'The service request is processed successfully.',
            })
            .execute();
          return {
            merchantRequestId: 'm-1',
            checkoutRequestId: 'ws_CO_race',
            responseCode: '0',
            responseDescription: 'Success. Request accepted for processing',
            customerMessage: 'Success. Request accepted for processing',
          };
        },
        stkQuery: async () => ({ state: 'pending', message: '' }),
      };
      const own = await createTestApp({ database: world.database, daraja });
      const { transactionId } = (
        await own.app.inject({
          method: 'POST',
          url: '/api/mpesa/stkpush',
          payload: { phoneNumber: '0712345678', amount: 7 },
        })
      ).json();
      const { data } = (
        await own.app.inject({ url: `/api/mpesa/transactions/${transactionId}` })
      ).json();
      await own.app.close();
      expect(data).toMatchObject({
        status: 'success',
        checkoutRequestId: 'ws_CO_race',
        responseDescription: 'The service request is processed successfully.',
      });
    });

    it('marks the transaction failed with Daraja’s words when Daraja refuses the push, and tells the payer plainly, with the id of the failed payment', async () => {
      const response = await pay({ phoneNumber: '0700000503', amount: 10 });
      expect(response.statusCode).toBe(503);
      const { data } = (await world.app.inject({ url: '/api/mpesa/transactions' })).json();
      expect(data).toHaveLength(1);
      expect(response.json()).toEqual({
        success: false,
        code: 'MPESA_BUSY',
        message: 'M-PESA is busy right now. Please try again in a few minutes.',
        transactionId: data[0]._id,
      });
      expect(data[0]).toMatchObject({
        status: 'failed',
        responseDescription: 'System is busy. Please try again in few minutes.',
        checkoutRequestId: null,
      });
    });

    it('refuses a second prompt while the first is still open on the phone', async () => {
      expect((await pay({ phoneNumber: '0708374149', amount: 10 })).statusCode).toBe(200);
      const second = await pay({ phoneNumber: '0708374149', amount: 11 });
      expect(second.statusCode).toBe(429);
      expect(second.json().message).toMatch(/^A payment request is already waiting on this phone/);
    });

    it.each([
      [
        { phoneNumber: '0812345678', amount: 10 },
        'Please enter a valid Kenyan phone number',
        'phoneNumber',
      ],
      [{ amount: 10 }, 'Please enter a valid Kenyan phone number', 'phoneNumber'],
      [{ phoneNumber: '0712345678', amount: 0 }, 'Amount must be at least 1 KES', 'amount'],
      [
        { phoneNumber: '0712345678', amount: '12.5' },
        'Amount must be a whole number of shillings',
        'amount',
      ],
      [
        { phoneNumber: '0712345678', amount: 300000 },
        'Amount must not be more than 250,000 KES',
        'amount',
      ],
      [{ phoneNumber: '0712345678' }, 'Please enter an amount', 'amount'],
      // The body as a whole: no field.
      [[], 'The request body must be a JSON object', undefined],
    ])(
      'refuses %j with a message the payer can read, naming its field, and saves nothing',
      async (payload, message, field) => {
        const response = await pay(payload);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          success: false,
          code: 'VALIDATION_ERROR',
          message,
          ...(field === undefined ? {} : { field }),
        });
        expect((await world.app.inject({ url: '/api/mpesa/transactions' })).json().data).toEqual(
          [],
        );
        expect(world.simulator.prompts.list()).toEqual([]);
      },
    );

    it('refuses malformed JSON and other content types plainly', async () => {
      const broken = await world.app.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        headers: { 'content-type': 'application/json' },
        payload: '{"phoneNumber":',
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toMatchObject({
        success: false,
        message: 'The request body is not valid JSON',
      });
      const text = await world.app.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        headers: { 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expect(text.statusCode).toBe(400);
      expect(text.json()).toMatchObject({
        success: false,
        message: 'The request body must be a JSON object',
      });
    });

    it('lists transactions newest first', async () => {
      const ids: string[] = [];
      for (const phone of ['0711111111', '0722222222', '0733333333']) {
        ids.push((await pay({ phoneNumber: phone, amount: 1 })).json().transactionId);
      }
      const list = await world.app.inject({ url: '/api/mpesa/transactions' });
      expect(list.statusCode).toBe(200);
      expect(list.json().data.map((t: { _id: string }) => t._id)).toEqual([...ids].reverse());
      const limited = await world.app.inject({ url: '/api/mpesa/transactions?limit=2' });
      expect(limited.json().data).toHaveLength(2);
      expect((await world.app.inject({ url: '/api/mpesa/transactions?limit=0' })).statusCode).toBe(
        400,
      );
    });

    it('answers 404 "Transaction not found" for an unknown id', async () => {
      const response = await world.app.inject({ url: '/api/mpesa/transactions/no-such-id' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        success: false,
        code: 'TRANSACTION_NOT_FOUND',
        message: 'Transaction not found',
      });
    });

    it('answers unknown API paths with a JSON 404', async () => {
      const response = await world.app.inject({ url: '/api/nothing-here' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    });

    it.each([
      ['PUT', '/api/mpesa/stkpush', 'POST', 'This address does not answer PUT: use POST.'],
      ['GET', '/api/mpesa/stkpush', 'POST', 'This address does not answer GET: use POST.'],
      [
        'DELETE',
        '/api/mpesa/transactions/abc',
        'GET, HEAD',
        'This address does not answer DELETE: use GET.',
      ],
      [
        'POST',
        '/api/mpesa/transactions?limit=5',
        'GET, HEAD',
        'This address does not answer POST: use GET.',
      ],
      [
        'GET',
        '/api/mpesa/callback/any-secret',
        'POST',
        'This address does not answer GET: use POST.',
      ],
    ] as const)(
      'answers %s %s with 405, saying which method it takes, and Allow',
      async (method, url, allow, message) => {
        const response = await world.app.inject({ method, url });
        expect(response.statusCode).toBe(405);
        expect(response.headers.allow).toBe(allow);
        expect(response.json()).toEqual({ success: false, code: 'METHOD_NOT_ALLOWED', message });
      },
    );

    it('answers a known address written with a trailing slash as not found, not as a wrong method', async () => {
      const response = await world.app.inject({ url: '/api/health/' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    });

    it('tells the web app it runs against the simulator', async () => {
      const response = await world.app.inject({ url: '/api/config' });
      expect(response.json()).toEqual({
        mpesaEnv: 'simulator',
        simulatorUrl: world.simulator.url,
        businessName: 'Sandbox Test Merchant',
        c2bShortcode: '600100',
        historyOpen: true,
      });
    });
  });
}
