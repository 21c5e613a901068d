import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/test-db.ts';
import { CALLBACK_PATH, TEST_CALLBACK_SECRET } from '../../test/test-app.ts';
import { useApiWithSimulator } from '../../test/world.ts';
import { failureCallback, successCallback } from '../../test/callbacks.ts';
import { reconcileOnce } from '../../test/reconcile.ts';
import { c2bEventPayload } from '../c2b/c2b-payments.service.ts';
import { describeEvent } from './events.routes.ts';
import type { TimelineRow } from './events.repository.ts';

for (const dialect of DIALECTS) {
  describe(`a payment's timeline (${dialect})`, () => {
    /** The time the API and the reconciler both see; tests move it. */
    let clock = Date.now();
    const world = useApiWithSimulator(dialect, { now: () => new Date(clock) });
    beforeEach(() => {
      clock = Date.now();
    });

    const pay = (phoneNumber: string, amount = 450) =>
      world.app.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        payload: { phoneNumber, amount },
      });
    const deliver = (payload: unknown) =>
      world.app.inject({
        method: 'POST',
        url: CALLBACK_PATH,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    const timeline = (id: string) =>
      world.app.inject({ url: `/api/mpesa/transactions/${encodeURIComponent(id)}/events` });
    const reconcile = () =>
      reconcileOnce(world.database, { darajaUrl: world.simulator.url, now: () => new Date(clock) });

    it('tells a paid payment from saving to a duplicate callback, in order, without the messages as received', async () => {
      const { transactionId, checkoutRequestId } = (await pay('0712345678')).json();
      clock += 5_000;
      const callback = successCallback(checkoutRequestId, {
        amount: 450,
        phoneNumber: '254712345678',
      });
      expect((await deliver(callback)).statusCode).toBe(200);
      clock += 5_000;
      expect((await deliver(callback)).statusCode).toBe(200);

      const response = await timeline(transactionId);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toEqual({
        success: true,
        data: [
          {
            at: expect.any(String),
            source: 'initiation',
            kind: 'saved',
            fromStatus: null,
            toStatus: 'pending',
            title: 'Saved before the payment request was sent',
            detail: null,
            reported: null,
            reviewer: null,
          },
          {
            at: expect.any(String),
            source: 'initiation',
            kind: 'accepted',
            fromStatus: 'pending',
            toStatus: 'pending',
            title: 'Accepted by M-PESA',
            detail: null,
            reported: null,
            reviewer: null,
          },
          {
            at: expect.any(String),
            source: 'callback',
            kind: 'applied',
            fromStatus: 'pending',
            toStatus: 'success',
            title: 'Callback: paid (receipt UF1E26WQJZ)',
            detail: 'The service request is processed successfully.',
            // What M-PESA reported, for the web app to word in the reader's language.
            reported: { status: 'success', receipt: 'UF1E26WQJZ' },
            reviewer: null,
          },
          {
            at: expect.any(String),
            source: 'callback',
            kind: 'duplicate',
            fromStatus: 'success',
            toStatus: 'success',
            title: 'Callback: duplicate, changed nothing',
            detail: 'The service request is processed successfully.',
            reported: { status: 'success', receipt: 'UF1E26WQJZ' },
            reviewer: null,
          },
        ],
      });
      const times = body.data.map((event: { at: string }) => Date.parse(event.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times[2] - times[0]).toBe(5_000);

      // The callbacks carried the payer's phone number and the path its secret: neither is told.
      const text = response.body;
      for (const secret of ['712345678', TEST_CALLBACK_SECRET, 'CallbackMetadata', 'Body']) {
        expect(text).not.toContain(secret);
      }
    });

    it('tells a cancelled payment in M-PESA’s own words', async () => {
      const { transactionId, checkoutRequestId } = (await pay('0712345678', 9)).json();
      await deliver(failureCallback(checkoutRequestId, 1032, 'Request Cancelled by user.'));
      const { data } = (await timeline(transactionId)).json();
      expect(data.at(-1)).toMatchObject({
        source: 'callback',
        toStatus: 'cancelled',
        title: 'Callback: cancelled by the payer',
        detail: 'Request Cancelled by user.',
      });
    });

    it('tells what an STK query learnt when the callback never came (0700009999)', async () => {
      const { transactionId } = (await pay('0700009999', 30)).json();
      await new Promise((resolve) => setTimeout(resolve, 150)); // the simulator settles it after 50 ms
      clock += 91_000;
      expect(await reconcile()).toBe(1);
      const { data } = (await timeline(transactionId)).json();
      expect(data.map((event: { title: string }) => event.title)).toEqual([
        'Saved before the payment request was sent',
        'Accepted by M-PESA',
        'Asked M-PESA (STK query): paid',
      ]);
      expect(data.at(-1)).toMatchObject({ source: 'query', toStatus: 'success' });
      expect(JSON.stringify(data)).not.toContain('700009999');
    });

    it('tells when reconciliation gave up, and why', async () => {
      await world.simulator.prompts.setNext('254711000001', { outcome: { kind: 'manual' } });
      const { transactionId } = (await pay('0711000001', 5)).json();
      for (const step of [91_000, 90_000, 600_000]) {
        clock += step;
        await reconcile();
      }
      const { data } = (await timeline(transactionId)).json();
      expect(data.at(-1)).toEqual({
        at: new Date(clock).toISOString(),
        source: 'reconciliation',
        kind: 'gave_up',
        fromStatus: 'pending',
        toStatus: 'unknown',
        title: 'Reconciliation gave up: outcome unknown',
        detail: expect.stringMatching(/^M-PESA gave no result for this payment within /),
        reported: null,
        reviewer: null,
      });
    });

    it('tells a push M-PESA refused (0700000503), with its reason', async () => {
      const answer = await pay('0700000503', 5);
      expect(answer.statusCode).toBeGreaterThanOrEqual(400);
      const [row] = await world.database.db.selectFrom('transactions').select('id').execute();
      const { data } = (await timeline(row!.id)).json();
      expect(data.map((event: { title: string }) => event.title)).toEqual([
        'Saved before the payment request was sent',
        'M-PESA refused the payment request',
      ]);
      expect(data[1]).toMatchObject({ fromStatus: 'pending', toStatus: 'failed' });
      expect(data[1].detail).toMatch(/busy/i);
      expect(JSON.stringify(data)).not.toMatch(/errorCode|httpStatus/);
    });

    it('answers 404 "Transaction not found" in our shape for an id that is not ours', async () => {
      for (const id of ['no-such-id', 'ünïcode', 'x'.repeat(80), '\u0000']) {
        const response = await timeline(id);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          success: false,
          code: 'TRANSACTION_NOT_FOUND',
          message: 'Transaction not found',
        });
      }
    });
  });
}

describe('the words of each kind of event', () => {
  const row = (overrides: Partial<TimelineRow>): TimelineRow => ({
    at: '2026-11-22T10:15:00.000Z',
    source: 'callback',
    from_status: 'pending',
    to_status: 'pending',
    kind: 'applied',
    reason: null,
    note: null,
    payload: null,
    ...overrides,
  });
  const told = (overrides: Partial<TimelineRow>) => {
    const { title, detail } = describeEvent(row(overrides));
    return { title, detail };
  };
  const cancelled = JSON.stringify(failureCallback('ws_CO_1', 1032, 'Request Cancelled by user.'));
  const paid = JSON.stringify(
    successCallback('ws_CO_1', { amount: 100, phoneNumber: '254712345678', receipt: 'UK2LATE001' }),
  );

  it('keeps our client’s error out of a push whose outcome is unknown', () => {
    expect(
      told({
        source: 'initiation',
        kind: 'push_unknown',
        note: 'outcome unknown: Daraja did not answer within 10000 ms',
      }),
    ).toEqual({
      title: 'M-PESA did not confirm the payment request',
      detail: 'A prompt may still have reached the payer’s phone; this payment updates on its own.',
    });
  });

  it('says M-PESA could not be reached when no refusal came back', () => {
    expect(
      told({ source: 'initiation', kind: 'push_failed', to_status: 'failed', payload: '{}' }),
    ).toEqual({
      title: 'M-PESA could not be reached',
      detail: 'No payment request was sent.',
    });
  });

  it('names the reason a payment was flagged, and what was reported', () => {
    expect(
      told({
        from_status: 'pending',
        to_status: 'failed',
        kind: 'flagged',
        reason: 'M-PESA reported 45 KES, not 450 KES',
        note: 'flagged: M-PESA reported 45 KES, not 450 KES',
        payload: paid,
      }),
    ).toEqual({
      title: 'Flagged for review: M-PESA reported 45 KES, not 450 KES',
      detail: 'Callback reported: paid (receipt UK2LATE001)',
    });
  });

  it('says what a report that changed nothing reported, and why', () => {
    expect(
      told({
        source: 'query',
        from_status: 'success',
        to_status: 'success',
        kind: 'ignored',
        reason: 'success is final',
        note: 'ignored: success is final',
        payload: JSON.stringify({ ResultCode: '1032', ResultDesc: 'Request cancelled by user' }),
      }),
    ).toEqual({
      title: 'Asked M-PESA (STK query): cancelled by the payer, changed nothing',
      detail: 'Not applied: success is final.',
    });
    expect(
      told({
        from_status: 'failed',
        to_status: 'failed',
        kind: 'not_applied_under_review',
        note: 'not applied: flagged for review (M-PESA reported 1 KES, not 100 KES)',
        payload: cancelled,
      }).title,
    ).toBe('Callback: cancelled by the payer, not applied while under review');
  });

  it('tells a late callback that lifted a final status, or settled an unknown outcome', () => {
    expect(
      told({
        from_status: 'cancelled',
        to_status: 'success',
        kind: 'lifted_flagged',
        reason: 'M-PESA sent contradicting results',
        note: 'late callback success lifted cancelled; flagged: M-PESA sent contradicting results',
        payload: paid,
      }),
    ).toEqual({
      title: 'Callback: paid (receipt UK2LATE001), replacing cancelled',
      detail: 'Flagged for review: M-PESA sent contradicting results',
    });
    expect(
      told({
        from_status: 'unknown',
        to_status: 'success',
        kind: 'settled_unknown',
        note: 'late callback settled the unknown outcome',
        payload: paid,
      }).title,
    ).toBe('Callback: paid (receipt UK2LATE001), settling the unknown outcome');
    expect(
      told({
        from_status: 'success',
        to_status: 'success',
        kind: 'receipt_added',
        note: 'receipt added by a late callback',
        payload: paid,
      }).title,
    ).toBe('Callback: paid (receipt UK2LATE001), receipt added');
  });

  it('tells a person’s review with their note', () => {
    expect(
      told({
        source: 'review',
        from_status: 'failed',
        to_status: 'success',
        kind: 'flag_cleared',
        note: 'flag cleared (M-PESA reported 1 KES, not 100 KES): payer paid the rest in cash',
      }),
    ).toEqual({
      title: 'Reviewed by a person: marked paid',
      detail: 'Flag cleared (M-PESA reported 1 KES, not 100 KES): payer paid the rest in cash',
    });
  });

  it('tells a refund asked for, reversed or failed, with who asked and M-PESA’s words', () => {
    const refund = (kind: TimelineRow['kind'], payload: object, to: TimelineRow['to_status']) =>
      told({
        source: 'refund',
        kind,
        from_status: 'success',
        to_status: to,
        payload: JSON.stringify(payload),
      });
    expect(
      refund('refund_requested', { by: 'Amina', reason: 'Paid twice for INV-7' }, 'success'),
    ).toEqual({ title: 'Refund requested by Amina', detail: 'Paid twice for INV-7' });
    expect(
      refund(
        'refunded',
        {
          receipt: 'UKR7REV001',
          resultCode: '0',
          resultDescription: 'The service request is processed successfully.',
        },
        'refunded',
      ),
    ).toEqual({
      title: 'Refunded: M-PESA reversed the payment (receipt UKR7REV001)',
      detail: 'The service request is processed successfully.',
    });
    expect(
      refund(
        'refund_failed',
        { resultCode: 'R000002', resultDescription: 'The OriginalTransactionID is invalid.' },
        'success',
      ),
    ).toEqual({
      title: 'Refund failed: The OriginalTransactionID is invalid.',
      detail:
        'The money stayed with the shop; an owner may ask for the refund again. (Result code R000002.)',
    });
    // A Result that never said anything, or a payload from an older version.
    expect(refund('refund_failed', {}, 'success').title).toBe('Refund failed');
    expect(told({ source: 'refund', kind: 'refund_requested', payload: 'not json' }).title).toBe(
      'Refund requested',
    );
  });

  it('never puts a phone number in a refund’s sentences, whatever the texts hold', () => {
    const { title, detail } = told({
      source: 'refund',
      kind: 'refund_requested',
      payload: JSON.stringify({
        by: 'Amina',
        reason: 'Customer 0712 345 678 (+254712345678, 2547 ***** 126) paid 1500 twice',
      }),
    });
    expect(`${title} ${detail}`).not.toMatch(/\d{3}[ -]?\d{3}[ -]?\d{3}|\*{5}/);
    expect(detail).toBe(
      'Customer [number hidden] ([number hidden], [number hidden]) paid 1500 twice',
    );
  });

  it('tells a till or paybill payment from the M-PESA menu, or found by its receipt', () => {
    // The payload as the C2B service writes it (c2b-payments.service.ts).
    const c2b = (kind: TimelineRow['kind'], paid: Parameters<typeof c2bEventPayload>[0] | null) =>
      told({
        source: 'c2b',
        kind,
        from_status: null,
        to_status: 'success',
        payload: paid === null ? '{}' : c2bEventPayload(paid),
      });
    const till = { shortcode: '600100', channel: 'till', reference: '' } as const;
    expect(c2b('c2b_confirmed', { ...till, receipt: 'UKR1TILL01' })).toEqual({
      title: 'Paid to till 600100 from the M-PESA menu',
      detail: 'Receipt UKR1TILL01.',
    });
    expect(
      c2b('c2b_confirmed', {
        shortcode: '600000',
        channel: 'paybill',
        reference: 'ACC-77',
        receipt: 'UKR1BILL01',
      }),
    ).toEqual({
      title: 'Paid to paybill 600000, account ACC-77, from the M-PESA menu',
      detail: 'Receipt UKR1BILL01.',
    });
    expect(c2b('c2b_found', { ...till, receipt: 'UKR1TILL02' })).toEqual({
      title: 'Found by its receipt: M-PESA confirmed the payment',
      detail: 'Receipt UKR1TILL02. Paid to till 600100.',
    });
    // An account number a payer typed as their phone number is hidden too.
    expect(
      c2b('c2b_confirmed', {
        shortcode: '600000',
        channel: 'paybill',
        reference: '0712345678',
        receipt: 'UKR1BILL02',
      }).title,
    ).toBe('Paid to paybill 600000, account [number hidden], from the M-PESA menu');
    expect(c2b('c2b_confirmed', null)).toEqual({
      title: 'Paid from the M-PESA menu',
      detail: null,
    });
    // Nothing M-PESA reported about a prompt: the result shown is the sentence alone.
    expect(describeEvent(row({ source: 'c2b', kind: 'c2b_confirmed' })).reported).toBeNull();
  });

  it('shortens long texts', () => {
    const { detail } = told({
      source: 'reconciliation',
      to_status: 'unknown',
      kind: 'gave_up',
      note: 'x'.repeat(1000),
    });
    expect(detail).toHaveLength(300);
    expect(detail?.endsWith('…')).toBe(true);
  });
});
