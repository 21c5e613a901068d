/**
 * PHONE_RETENTION_DAYS (docs/deployment.md): old settled payments lose the payer's number
 * everywhere it is stored, and keep everything else; on each database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransactionRow } from '../../db/schema.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { CALLBACK_PATH, createTestApp } from '../../test/test-app.ts';
import { findTransactionByCheckoutId } from '../payments/transactions.repository.ts';
import {
  RETENTION_BATCH,
  maskDuePhones,
  maskNumbersIn,
  type RetentionDeps,
} from './phone-retention.ts';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const OLD = '2026-10-01T09:00:00.000Z';
const RECENT = '2026-11-20T09:00:00.000Z';
const PHONE = '254712345678';
const MASKED = '254*****5678';
const CHECKOUT = 'ws_CO_01102026120000123712345678';
const MASKED_CHECKOUT = 'ws_CO_01102026120000123*****5678';
const quiet = { info() {}, warn() {}, error() {} } as unknown as RetentionDeps['log'];

/** A callback body as Daraja sends it for a paid request: its number twice. */
function paidCallback(checkout: string, phone: string): string {
  return JSON.stringify({
    Body: {
      stkCallback: {
        MerchantRequestID: '29115-34620561-1',
        CheckoutRequestID: checkout,
        ResultCode: 0,
        ResultDesc: 'The service request is processed successfully.',
        CallbackMetadata: {
          Item: [
            { Name: 'Amount', Value: 100 },
            { Name: 'MpesaReceiptNumber', Value: 'UF1E26WQJZ' },
            { Name: 'TransactionDate', Value: 20261001120005 },
            { Name: 'PhoneNumber', Value: Number(phone) },
          ],
        },
      },
    },
  });
}

describe('masking numbers in a text whose numbers are not known', () => {
  it.each([
    ['"Value":254712345678}', '"Value":"254*****5678"}'],
    ['"Value": 254112345678,', '"Value": "254*****5678",'],
    ['call 0712345678 or 254712345678.', 'call 0*****5678 or 254*****5678.'],
    [CHECKOUT, MASKED_CHECKOUT],
    // Other long numbers are left as they are: a date, an amount, a 13-digit id.
    ['"TransactionDate":20261001120005', '"TransactionDate":20261001120005'],
    ['"Value":2547123456789', '"Value":2547123456789'],
    ['"Amount":254712345678.5', '"Amount":254712345678.5'],
  ])('%s', (text, masked) => {
    expect(maskNumbersIn(text)).toBe(masked);
    // Masking twice changes nothing more.
    expect(maskNumbersIn(masked)).toBe(masked);
  });
});

for (const dialect of DIALECTS) {
  describe(`phone retention (${dialect})`, () => {
    let database: TestDatabase;
    let deps: RetentionDeps;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      deps = { db: database.db, dialect, log: quiet, now: () => NOW, days: 30 };
    });
    afterEach(async () => {
      await database.destroy();
    });

    /** A payment with its callback, its events, its idempotency key and its phone lock. */
    async function paymentWithTraces(
      id: string,
      at: string,
      fields: Partial<TransactionRow> = {},
      phone = PHONE,
      checkout = CHECKOUT,
    ) {
      const db = database.db;
      await db
        .insertInto('transactions')
        .values(
          storedPayment(id, at, {
            phone_number: phone,
            checkout_request_id: checkout,
            mpesa_receipt_number: 'UF1E26WQJZ',
            amount: 1500,
            ...fields,
          }),
        )
        .execute();
      await db
        .insertInto('callbacks')
        .values({
          id: `cb-${id}`,
          kind: 'stk-push',
          received_at: at,
          checkout_request_id: checkout,
          transaction_id: id,
          source_ip: '196.201.214.200',
          raw_body: paidCallback(checkout, phone),
          outcome: 'applied',
        })
        .execute();
      await db
        .insertInto('transaction_events')
        .values({
          id: `ev-${id}`,
          transaction_id: id,
          at,
          source: 'callback',
          from_status: 'pending',
          to_status: 'success',
          kind: 'applied',
          reason: null,
          note: null,
          payload: paidCallback(checkout, phone),
        })
        .execute();
      await db
        .insertInto('idempotency_keys')
        .values({
          key: `key-${id}`,
          request_hash: 'h'.repeat(64),
          transaction_id: id,
          status_code: 200,
          response_body: JSON.stringify({ checkoutRequestId: checkout }),
          created_at: at,
          expires_at: '2099-01-01T00:00:00.000Z',
        })
        .execute();
      await db
        .insertInto('phone_locks')
        .values({ phone_number: phone, transaction_id: id, locked_until: at })
        .onConflict((conflict) => conflict.column('phone_number').doNothing())
        .execute();
    }

    /** Every stored text of payment `id` that could hold its number. */
    async function traces(id: string) {
      const db = database.db;
      const payment = await db
        .selectFrom('transactions')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const callbacks = await db
        .selectFrom('callbacks')
        .select(['raw_body', 'checkout_request_id'])
        .where('transaction_id', '=', id)
        .execute();
      const events = await db
        .selectFrom('transaction_events')
        .select('payload')
        .where('transaction_id', '=', id)
        .execute();
      const keys = await db
        .selectFrom('idempotency_keys')
        .select('response_body')
        .where('transaction_id', '=', id)
        .execute();
      const locks = await db
        .selectFrom('phone_locks')
        .select('phone_number')
        .where('transaction_id', '=', id)
        .execute();
      return { payment, text: JSON.stringify({ payment, callbacks, events, keys, locks }) };
    }

    it('masks an old settled payment everywhere, and keeps its amount, receipt and status', async () => {
      await paymentWithTraces('old-paid', OLD);

      expect(await maskDuePhones(deps)).toBe(1);

      const { payment, text } = await traces('old-paid');
      expect(text).not.toContain('712345678');
      expect(text).toContain(MASKED);
      expect(text).toContain(MASKED_CHECKOUT);
      expect(payment).toMatchObject({
        phone_number: MASKED,
        checkout_request_id: MASKED_CHECKOUT,
        amount: 1500,
        status: 'success',
        mpesa_receipt_number: 'UF1E26WQJZ',
        reference: 'old-paid',
        created_at: OLD,
        phone_masked_at: NOW.toISOString(),
      });
      const lock = await database.db.selectFrom('phone_locks').selectAll().execute();
      expect(lock).toEqual([]);
    });

    it('masks a till payment’s number and name as M-PESA gave them, in its row and its confirmation', async () => {
      const confirmation = JSON.stringify({
        TransactionType: 'Buy Goods',
        TransID: 'TK60708BHZ',
        TransAmount: '1500.00',
        BusinessShortCode: '600100',
        BillRefNumber: '',
        MSISDN: '2547 ***** 678',
        FirstName: 'WANJIKU',
        MiddleName: '',
        LastName: 'KAMAU',
      });
      await database.db
        .insertInto('transactions')
        .values(
          storedPayment('old-till', OLD, {
            phone_number: '2547 ***** 678',
            mpesa_receipt_number: 'TK60708BHZ',
            amount: 1500,
            channel: 'till',
            payer_name: 'WANJIKU KAMAU',
            payer_msisdn: '2547 ***** 678',
            shortcode: '600100',
          }),
        )
        .execute();
      await database.db
        .insertInto('callbacks')
        .values({
          id: 'cb-old-till',
          kind: 'c2b-confirmation',
          received_at: OLD,
          checkout_request_id: null,
          transaction_id: 'old-till',
          source_ip: '196.201.214.200',
          raw_body: confirmation,
          outcome: 'applied',
        })
        .execute();

      expect(await maskDuePhones(deps)).toBe(1);

      const payment = await database.db
        .selectFrom('transactions')
        .selectAll()
        .where('id', '=', 'old-till')
        .executeTakeFirstOrThrow();
      expect(payment).toMatchObject({
        payer_name: null,
        payer_msisdn: null,
        mpesa_receipt_number: 'TK60708BHZ',
        channel: 'till',
        status: 'success',
      });
      expect(payment.phone_number).not.toContain('678 ');
      const kept = await database.db
        .selectFrom('callbacks')
        .select('raw_body')
        .where('id', '=', 'cb-old-till')
        .executeTakeFirstOrThrow();
      expect(kept.raw_body).not.toMatch(/WANJIKU|KAMAU|2547 \*\*\*\*\* 678/);
      expect(JSON.parse(kept.raw_body)).toMatchObject({ TransID: 'TK60708BHZ', MSISDN: '*****' });
    });

    it('keeps every masked callback body and event payload valid JSON, the receipt still in it', async () => {
      await paymentWithTraces('old-paid', OLD);
      // A body as Daraja may space it, the number a JSON number after ": ".
      await database.db
        .updateTable('callbacks')
        .set({ raw_body: JSON.stringify(JSON.parse(paidCallback('x', PHONE)), null, 1) })
        .where('transaction_id', '=', 'old-paid')
        .execute();
      await maskDuePhones(deps);
      const { text } = await traces('old-paid');
      expect(text).not.toContain('712345678');
      const bodies = await database.db
        .selectFrom('callbacks')
        .select('raw_body')
        .where('transaction_id', '=', 'old-paid')
        .execute();
      const payloads = await database.db
        .selectFrom('transaction_events')
        .select('payload')
        .where('transaction_id', '=', 'old-paid')
        .execute();
      const stored = [...bodies.map((row) => row.raw_body), ...payloads.map((row) => row.payload)];
      expect(stored.length).toBeGreaterThan(1);
      for (const json of stored.filter((each) => each !== null)) {
        const parsed = JSON.parse(json!);
        expect(JSON.stringify(parsed)).toContain('UF1E26WQJZ');
        expect(JSON.stringify(parsed)).toContain(`"${MASKED}"`);
      }
    });

    it('leaves a recent payment, and an old one still pending, unknown or flagged, untouched', async () => {
      await paymentWithTraces('recent', RECENT, {}, '254712000001', 'ws_CO_1');
      await paymentWithTraces('pending', OLD, { status: 'pending' }, '254712000002', 'ws_CO_2');
      await paymentWithTraces('unknown', OLD, { status: 'unknown' }, '254712000003', 'ws_CO_3');
      await paymentWithTraces(
        'flagged',
        OLD,
        { flagged_reason: 'amount_mismatch' },
        '254712000004',
        'ws_CO_4',
      );
      const before = await Promise.all(['recent', 'pending', 'unknown', 'flagged'].map(traces));

      expect(await maskDuePhones(deps)).toBe(0);

      const after = await Promise.all(['recent', 'pending', 'unknown', 'flagged'].map(traces));
      expect(after).toEqual(before);
      expect(after.map(({ payment }) => payment.phone_masked_at)).toEqual([null, null, null, null]);
    });

    it('masks a flagged payment once its flag is reviewed', async () => {
      await paymentWithTraces('flagged', OLD, { flagged_reason: 'amount_mismatch' });
      expect(await maskDuePhones(deps)).toBe(0);
      await database.db
        .updateTable('transactions')
        .set({ flagged_reason: null })
        .where('id', '=', 'flagged')
        .execute();
      expect(await maskDuePhones(deps)).toBe(1);
      expect((await traces('flagged')).payment.phone_number).toBe(MASKED);
    });

    it('works in batches, and a second run changes nothing', async () => {
      const count = RETENTION_BATCH + 3;
      await database.db
        .insertInto('transactions')
        .values(
          Array.from({ length: count }, (_, i) =>
            storedPayment(`p-${String(i).padStart(4, '0')}`, OLD, {
              phone_number: `2547${String(i).padStart(8, '0')}`,
            }),
          ),
        )
        .execute();
      const batches: number[] = [];
      const counting = { ...deps };
      const { maskDueBatch } = await import('./phone-retention.ts');
      for (let n = await maskDueBatch(counting); n > 0; n = await maskDueBatch(counting)) {
        batches.push(n);
      }
      expect(batches).toEqual([RETENTION_BATCH, 3]);
      const snapshot = await database.db.selectFrom('transactions').selectAll().execute();
      expect(snapshot.every((row) => /^254\*{5}[0-9]{4}$/.test(row.phone_number))).toBe(true);

      expect(await maskDuePhones({ ...deps, now: () => new Date(NOW.getTime() + 3600_000) })).toBe(
        0,
      );
      expect(await database.db.selectFrom('transactions').selectAll().execute()).toEqual(snapshot);
    });

    it('gives two payments whose ids would mask alike different CheckoutRequestIDs', async () => {
      await paymentWithTraces('first', OLD, {}, '254712345678', CHECKOUT);
      const twin = CHECKOUT.replace('712345678', '799995678');
      await paymentWithTraces('second', OLD, {}, '254799995678', twin);

      expect(await maskDuePhones(deps)).toBe(2);

      const ids = await database.db
        .selectFrom('transactions')
        .select('checkout_request_id')
        .orderBy('id')
        .execute();
      expect(ids.map((row) => row.checkout_request_id)).toEqual([
        MASKED_CHECKOUT,
        `${MASKED_CHECKOUT}/second`,
      ]);
      // A late callback for either cannot tell them apart: it is kept, matched to neither.
      const found = await findTransactionByCheckoutId(database.db, twin, dialect);
      expect(found).toBeUndefined();
      expect(await findTransactionByCheckoutId(database.db, CHECKOUT, dialect)).toBeUndefined();
    });

    it('lets two instances run it at once without conflict, each payment masked once', async () => {
      await database.db
        .insertInto('transactions')
        .values(
          Array.from({ length: 2 * RETENTION_BATCH + 50 }, (_, i) =>
            storedPayment(`p-${String(i).padStart(4, '0')}`, OLD, {
              phone_number: `2547${String(i).padStart(8, '0')}`,
            }),
          ),
        )
        .execute();
      const [a, b] = await Promise.all([maskDuePhones(deps), maskDuePhones(deps)]);
      expect(a + b).toBe(2 * RETENTION_BATCH + 50);
      const left = await database.db
        .selectFrom('transactions')
        .select('id')
        .where('phone_masked_at', 'is', null)
        .execute();
      expect(left).toEqual([]);
    });

    it('still finds a masked payment for a late callback, applies it as before, and masks what it brought', async () => {
      await paymentWithTraces('old-timeout', OLD, {
        status: 'timeout',
        result_code: '1037',
        mpesa_receipt_number: null,
      });
      await maskDuePhones(deps);
      const { app } = await createTestApp({ database, now: () => NOW });
      try {
        const late = JSON.parse(paidCallback(CHECKOUT, PHONE));
        late.Body.stkCallback.CallbackMetadata.Item[0].Value = 1500;
        late.Body.stkCallback.CallbackMetadata.Item[1].Value = 'LATEPAID01';
        const answer = await app.inject({
          method: 'POST',
          url: CALLBACK_PATH,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(late),
        });
        expect(answer.statusCode).toBe(200);
      } finally {
        await app.close();
      }
      const { payment, text } = await traces('old-timeout');
      // As for a payment never masked: the late success is taken (before, it was kept as an orphan
      // and the payment stayed timed out), its number not held against the masked one.
      expect(payment).toMatchObject({ status: 'success', mpesa_receipt_number: 'LATEPAID01' });
      const orphans = await database.db
        .selectFrom('callbacks')
        .select('id')
        .where('transaction_id', 'is', null)
        .execute();
      expect(orphans).toEqual([]);
      expect(text).not.toContain('712345678');
    });

    it('is not found by the old number, and is exported masked', async () => {
      await paymentWithTraces('old-paid', OLD);
      await paymentWithTraces('recent', RECENT, {}, '254712345678', 'ws_CO_recent');
      const { app } = await createTestApp({
        database,
        env: { PHONE_RETENTION_DAYS: '30' },
        now: () => NOW,
      });
      try {
        await maskDuePhones(deps);
        const search = await app.inject({ url: '/api/mpesa/transactions?q=0712345678' });
        expect(search.json()).toMatchObject({
          phoneRetentionDays: 30,
          data: [{ _id: 'recent', phoneNumber: PHONE }],
        });
        expect(search.json<{ data: unknown[] }>().data).toHaveLength(1);

        const csv = await app.inject({ url: '/api/mpesa/transactions/export' });
        const line = csv.body.split('\r\n').find((row) => row.startsWith('old-paid,'));
        // As stored: its asterisks make it text to a spreadsheet (history-csv.ts).
        expect(line).toContain(`,${MASKED},1500,success,UF1E26WQJZ,`);
        expect(csv.body).not.toMatch(/old-paid,[^\r]*712345678/);

        const detail = await app.inject({ url: '/api/mpesa/transactions/old-paid' });
        expect(detail.json()).toMatchObject({
          data: { phoneNumber: MASKED, amount: 1500, status: 'success' },
        });
      } finally {
        await app.close();
      }
    });

    it('masks the numbers in an old callback no payment claimed, by their form, once', async () => {
      const orphan = (id: string, at: string, outcome: 'orphan' | 'invalid', body: string) =>
        database.db
          .insertInto('callbacks')
          .values({
            id,
            kind: 'stk-push',
            received_at: at,
            checkout_request_id: outcome === 'orphan' ? CHECKOUT : null,
            transaction_id: null,
            source_ip: '196.201.214.200',
            raw_body: body,
            outcome,
          })
          .execute();
      await orphan('old-orphan', OLD, 'orphan', paidCallback(CHECKOUT, PHONE));
      await orphan(
        'old-invalid',
        OLD,
        'invalid',
        '{"phone":"0712345678","PhoneNumber":"254712345678"',
      );
      await orphan('new-orphan', RECENT, 'orphan', paidCallback(CHECKOUT, PHONE));

      expect(await maskDuePhones(deps)).toBe(2);
      const rows = await database.db
        .selectFrom('callbacks')
        .select(['id', 'raw_body', 'checkout_request_id', 'phone_masked_at'])
        .orderBy('id')
        .execute();
      const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
      const masked = byId['old-orphan']!;
      expect(masked.checkout_request_id).toBe(MASKED_CHECKOUT);
      expect(masked.phone_masked_at).toBe(NOW.toISOString());
      expect(masked.raw_body).not.toContain('712345');
      const items = JSON.parse(masked.raw_body).Body.stkCallback.CallbackMetadata.Item;
      expect(items).toContainEqual({ Name: 'PhoneNumber', Value: MASKED });
      // Everything else it says is kept: the receipt, the amount, the date.
      expect(items).toContainEqual({ Name: 'MpesaReceiptNumber', Value: 'UF1E26WQJZ' });
      expect(items).toContainEqual({ Name: 'TransactionDate', Value: 20261001120005 });
      expect(byId['old-invalid']!.raw_body).toBe(
        '{"phone":"0*****5678","PhoneNumber":"254*****5678"',
      );
      expect(byId['new-orphan']!.raw_body).toBe(paidCallback(CHECKOUT, PHONE));
      expect(byId['new-orphan']!.phone_masked_at).toBeNull();

      // A second round finds nothing left to do.
      expect(await maskDuePhones(deps)).toBe(0);
    });

    it('touches nothing, and says nothing, with the setting off', async () => {
      await paymentWithTraces('old-paid', OLD);
      const before = await traces('old-paid');
      const { app } = await createTestApp({ database, now: () => NOW });
      try {
        const list = await app.inject({ url: '/api/mpesa/transactions' });
        expect(list.json()).not.toHaveProperty('phoneRetentionDays');
      } finally {
        await app.close();
      }
      expect(await traces('old-paid')).toEqual(before);
    });
  });
}
