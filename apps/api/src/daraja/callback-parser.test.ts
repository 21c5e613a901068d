import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseStkCallback } from './callback-parser.ts';
import { statusForResultCode } from './result-codes.ts';
import { FIXTURES_DIR, fixture } from '../test/fixtures.ts';

const parse = (name: string) => {
  const result = parseStkCallback(fixture(name));
  if (!result.ok) throw new Error(`${name}: ${result.reason}`);
  return result.callback;
};

describe('parseStkCallback on every shape in docs/daraja-protocol.md §4', () => {
  it('reads a documented success, whose metadata has no Balance item', () => {
    expect(parse('callback-success-docs.json')).toEqual({
      merchantRequestId: '29115-34620561-1',
      checkoutRequestId: 'ws_CO_191220191020363925',
      resultCode: '0',
      resultDesc: 'The service request is processed successfully.',
      metadata: {
        amount: 1,
        mpesaReceiptNumber: 'NLJ7RT61SV',
        balance: null,
        transactionDate: '2019-12-19T07:21:15.000Z',
        phoneNumber: '254708374149',
      },
    });
  });

  it('reads a 2026 success with a Balance item that has no Value', () => {
    const callback = parse('callback-success-balance-without-value.json');
    expect(callback.resultCode).toBe('0');
    expect(callback.metadata).toEqual({
      amount: 450,
      mpesaReceiptNumber: 'UF1E26WQJZ',
      balance: null,
      transactionDate: '2026-06-14T16:36:04.000Z',
      phoneNumber: '254712345678',
    });
  });

  it.each([
    ['callback-cancelled.json', '1032', 'Request Cancelled by user.', 'cancelled'],
    ['callback-unreachable.json', '1037', 'DS timeout user cannot be reached.', 'timeout'],
    [
      'callback-insufficient-balance.json',
      '1',
      'The balance is insufficient for the transaction.',
      'failed',
    ],
    ['callback-string-result-code.json', 'SFC_IC0003', 'The operator does not exist.', 'failed'],
  ])('reads the failure %s with no metadata', (name, code, desc, status) => {
    const callback = parse(name);
    expect(callback).toMatchObject({ resultCode: code, resultDesc: desc, metadata: null });
    expect(statusForResultCode(callback.resultCode)).toBe(status);
  });

  it('looks metadata items up by name, in any order, and ignores unknown ones', () => {
    const result = parseStkCallback({
      Body: {
        stkCallback: {
          MerchantRequestID: 'm',
          CheckoutRequestID: 'ws_CO_1',
          ResultCode: 0,
          ResultDesc: 'ok',
          CallbackMetadata: {
            Item: [
              { Name: 'PhoneNumber', Value: 254712345678 },
              { Name: 'Something', Value: 'new' },
              { Name: 'TransactionDate', Value: '20260101000000' },
              { Name: 'MpesaReceiptNumber', Value: 'UA1B2C3D4E' },
              { Name: 'Amount', Value: '1.00' },
            ],
          },
        },
      },
    });
    expect(result).toMatchObject({
      ok: true,
      callback: {
        metadata: {
          amount: 1,
          mpesaReceiptNumber: 'UA1B2C3D4E',
          transactionDate: '2025-12-31T21:00:00.000Z',
          phoneNumber: '254712345678',
        },
      },
    });
  });

  it('parses every callback fixture there is', () => {
    const names = fs.readdirSync(FIXTURES_DIR).filter((name) => name.startsWith('callback-'));
    expect(names.length).toBeGreaterThanOrEqual(6);
    for (const name of names) expect(parseStkCallback(fixture(name)).ok).toBe(true);
  });

  it.each([
    [undefined],
    [null],
    [[]],
    [{}],
    [{ Body: {} }],
    [{ Body: { stkCallback: { CheckoutRequestID: 'x', ResultCode: 0 } } }],
    [{ Body: { stkCallback: { MerchantRequestID: 'm', CheckoutRequestID: '', ResultCode: 0 } } }],
    [{ Body: { stkCallback: { MerchantRequestID: 'm', CheckoutRequestID: 'c', ResultCode: {} } } }],
  ])('refuses %j', (body) => {
    expect(parseStkCallback(body).ok).toBe(false);
  });
});

describe('statusForResultCode', () => {
  it.each([
    ['0', 'success'],
    ['1032', 'cancelled'],
    ['1037', 'timeout'],
    ['1019', 'timeout'],
    ['1', 'failed'],
    ['2001', 'failed'],
    ['17', 'failed'],
  ])('%s → %s', (code, status) => {
    expect(statusForResultCode(code)).toBe(status);
  });
});
