/** What a transaction status Result says of a receipt (docs/daraja-protocol.md §M5, §M5.1), as a table. */
import { describe, expect, it } from 'vitest';
import type { DarajaResult } from '../../daraja/result-parser.ts';
import { readReceiptResult } from './receipt-result.ts';

const ASKED = { receipt: 'UKQ31H462N', shortcode: '600100' };

function result(code: string, parameters: Record<string, string | string[]> = {}): DarajaResult {
  return {
    resultCode: code,
    resultDesc: '',
    originatorConversationId: 'o-1',
    conversationId: 'AG_1',
    transactionId: 'UKQ0000000',
    parameters: Object.entries(parameters).flatMap(([key, value]) =>
      [value].flat().map((one) => ({ key, value: one })),
    ),
    references: [],
  };
}

const completed = (changes: Record<string, string | string[]> = {}) =>
  result('0', {
    DebitPartyName: ['254708374149 - John Doe', '600100 - Test Till'],
    InitiatedTime: '20261127101500',
    ReasonType: 'Buy Goods Online',
    TransactionStatus: 'Completed',
    Amount: '640',
    ReceiptNo: 'UKQ31H462N',
    ...changes,
  });

describe('a receipt check’s Result', () => {
  it('is a till payment to us when completed with our shortcode the credit side', () => {
    expect(readReceiptResult(completed(), ASKED)).toEqual({
      kind: 'found',
      payment: {
        channel: 'till',
        receipt: 'UKQ31H462N',
        amount: 640,
        shortcode: '600100',
        reference: '',
        transactionDate: '2026-11-27T07:15:00.000Z',
        payerName: 'John Doe',
        payerMsisdn: '254708374149',
      },
    });
  });

  it.each([
    ['Pay Bill Online', 'paybill'],
    ['Business Pay Bill', 'paybill'],
    ['Buy Goods Online', 'till'],
    ['Business Buy Goods', 'till'],
  ])('reads ReasonType %s as %s', (reasonType, channel) => {
    const read = readReceiptResult(completed({ ReasonType: reasonType }), ASKED);
    expect(read).toMatchObject({ kind: 'found', payment: { channel } });
  });

  it.each(['0x280', '6.4e2', '640.000000000000001'])(
    'records nothing for the amount %j, which is no plain whole number of shillings',
    (amount) => {
      expect(readReceiptResult(completed({ Amount: amount }), ASKED)).toEqual({
        kind: 'failed',
        resultCode: '0',
      });
    },
  );

  it('strips bidirectional overrides and zero-width characters from the payer', () => {
    const read = readReceiptResult(
      completed({
        DebitPartyName: [
          '254708374149\u200b - \u202eJohn\u202c D\u200doe\ufeff',
          '600100 - Test Till',
        ],
      }),
      ASKED,
    );
    expect(read).toMatchObject({
      kind: 'found',
      payment: { payerName: 'John Doe', payerMsisdn: '254708374149' },
    });
  });

  it('takes CreditPartyName when M-PESA sends it', () => {
    const read = readReceiptResult(
      completed({ DebitPartyName: '254708374149 - John Doe', CreditPartyName: '600100 - Till' }),
      ASKED,
    );
    expect(read.kind).toBe('found');
  });

  it.each([
    [
      'R000002, no such transaction',
      result('R000002'),
      { kind: 'not_found', resultCode: 'R000002' },
    ],
    [
      'another party’s transaction',
      completed({ DebitPartyName: ['254708374149 - John Doe', '600984 - Another'] }),
      { kind: 'not_found', resultCode: 'Completed' },
    ],
    [
      'a cancelled payment',
      completed({ TransactionStatus: 'Cancelled' }),
      { kind: 'not_found', resultCode: 'Cancelled' },
    ],
    ['a bad initiator', result('2001'), { kind: 'failed', resultCode: '2001' }],
    [
      'another receipt',
      completed({ ReceiptNo: 'UKQ0THER00' }),
      { kind: 'failed', resultCode: '0' },
    ],
    ['a fraction', completed({ Amount: '640.50' }), { kind: 'failed', resultCode: '0' }],
  ])('records nothing for %s', (_what, read, expected) => {
    expect(readReceiptResult(read, ASKED)).toEqual(expected);
  });
});
