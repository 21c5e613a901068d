/** The C2B notification body (docs/daraja-protocol.md §M3.3) as the history records it. */
import { describe, expect, it } from 'vitest';
import { readC2bBody, shownPhone, wholeShillingsOf } from './c2b-body.ts';

/** The real sandbox confirmation of §M3.3 (C2B v1, November 2025). */
const CAPTURED = {
  TransactionType: 'Pay Bill',
  TransID: 'TK60708BHZ',
  TransTime: '20251106230212',
  TransAmount: '1.00',
  BusinessShortCode: '600995',
  BillRefNumber: 'UM001',
  InvoiceNumber: 'ThisInvoice',
  OrgAccountBalance: '41880264.80',
  ThirdPartyTransID: '',
  MSISDN: '94c392c311d522da950619227b3361752a42042db7e1e699b26e628305c68a88',
  FirstName: 'NICHOLAS',
  MiddleName: 'JOHN',
  LastName: 'SONGOK',
};

describe('a C2B notification', () => {
  it('reads the captured confirmation', () => {
    expect(readC2bBody(JSON.stringify(CAPTURED))).toEqual({
      ok: true,
      payment: {
        channel: 'paybill',
        receipt: 'TK60708BHZ',
        amount: 1,
        shortcode: '600995',
        reference: 'UM001',
        transactionDate: '2025-11-06T20:02:12.000Z',
        payerName: 'NICHOLAS JOHN SONGOK',
        payerMsisdn: CAPTURED.MSISDN,
      },
    });
  });

  it('takes numbers where strings are documented, and skips empty name parts', () => {
    const read = readC2bBody(
      JSON.stringify({
        ...CAPTURED,
        TransactionType: 'Buy Goods',
        TransAmount: 10,
        BusinessShortCode: 600100,
        BillRefNumber: null,
        MiddleName: '',
        TransTime: 'yesterday',
      }),
    );
    expect(read).toMatchObject({
      ok: true,
      payment: {
        channel: 'till',
        amount: 10,
        shortcode: '600100',
        reference: '',
        payerName: 'NICHOLAS SONGOK',
        transactionDate: null,
      },
    });
  });

  it.each([
    ['no receipt', { ...CAPTURED, TransID: '' }],
    ['a fraction of a shilling', { ...CAPTURED, TransAmount: '1.50' }],
    ['no amount', { ...CAPTURED, TransAmount: '' }],
    ['a receipt with a control character', { ...CAPTURED, TransID: 'TK6\u0007708BHZ' }],
    ['no shortcode', { ...CAPTURED, BusinessShortCode: undefined }],
  ])('is no payment with %s', (_what, body) => {
    expect(readC2bBody(JSON.stringify(body)).ok).toBe(false);
  });

  it.each(['0x10', '0b11', '0o17', '1e3', '+5', '-5', '1_000', '100.000000000000001', '100.'])(
    'refuses the amount %j: only a plain whole number of shillings is read, never rounded',
    (amount) => {
      const read = readC2bBody(JSON.stringify({ ...CAPTURED, TransAmount: amount }));
      expect(read).toEqual({
        ok: false,
        problem: 'TransAmount: must be a whole number of shillings from 1 to 1000000000, in digits',
      });
      expect(wholeShillingsOf(amount)).toBeNull();
    },
  );

  it.each([
    ['100', 100],
    ['100.00', 100],
    [' 250.0 ', 250],
    [75, 75],
  ])('reads the amount %j as %j shillings', (amount, shillings) => {
    expect(readC2bBody(JSON.stringify({ ...CAPTURED, TransAmount: amount }))).toMatchObject({
      ok: true,
      payment: { amount: shillings },
    });
  });

  it('keeps a receipt sent in lower case in upper case, as the history reads receipts', () => {
    const read = readC2bBody(JSON.stringify({ ...CAPTURED, TransID: 'tk60708bhz' }));
    expect(read).toMatchObject({ ok: true, payment: { receipt: 'TK60708BHZ' } });
  });

  it('strips bidirectional overrides and zero-width characters from the names and the account', () => {
    const read = readC2bBody(
      JSON.stringify({
        ...CAPTURED,
        BillRefNumber: '\u202eINV-42\u202c\u200b',
        FirstName: '\u2066NICHOLAS\u2069',
        MiddleName: '\ufeffJO\u200dHN',
        LastName: 'SON\u200eGOK\u202a\u202b\u202d\u200f\u2067\u2068\u200c',
        MSISDN: '2547 ***** 126\u200b',
      }),
    );
    expect(read).toMatchObject({
      ok: true,
      payment: {
        reference: 'INV-42',
        payerName: 'NICHOLAS JOHN SONGOK',
        payerMsisdn: '2547 ***** 126',
      },
    });
  });

  it.each([
    [null, ''],
    ['2547 ***** 126', '2547 ***** 126'],
    [CAPTURED.MSISDN, '#94c392c311d5'],
    ['254708374149', '254708374149'],
    ['x'.repeat(40), 'x'.repeat(16)],
  ])('shows the number %j as %j', (msisdn, shown) => {
    expect(shownPhone(msisdn)).toBe(shown);
  });
});
