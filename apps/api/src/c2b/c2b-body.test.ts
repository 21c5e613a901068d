/** The C2B notification body (docs/daraja-protocol.md §M3.3) as the history records it. */
import { describe, expect, it } from 'vitest';
import { readC2bBody, shownPhone } from './c2b-body.ts';

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
