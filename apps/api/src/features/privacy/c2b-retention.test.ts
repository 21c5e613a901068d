/** The payer's number and name out of kept C2B messages (PHONE_RETENTION_DAYS). */
import { describe, expect, it } from 'vitest';
import { withoutPayer } from './c2b-retention.ts';

describe('a C2B message without its payer', () => {
  it('masks the number and the names of a confirmation, and keeps the rest', () => {
    const masked = JSON.parse(
      withoutPayer(
        JSON.stringify({
          TransID: 'TK60708BHZ',
          TransAmount: '1.00',
          BillRefNumber: 'UM001',
          MSISDN: '94c392c311d522da950619227b3361752a42042db7e1e699b26e628305c68a88',
          FirstName: 'NICHOLAS',
          MiddleName: '',
          LastName: 'SONGOK',
        }),
      ),
    );
    expect(masked).toEqual({
      TransID: 'TK60708BHZ',
      TransAmount: '1.00',
      BillRefNumber: 'UM001',
      MSISDN: '*****',
      FirstName: '*****',
      MiddleName: '',
      LastName: '*****',
    });
  });

  it('masks a person’s party in a transaction status Result, and keeps the shop’s', () => {
    const body = {
      Result: {
        ResultCode: 0,
        ResultParameters: {
          ResultParameter: [
            { Key: 'DebitPartyName', Value: '254708374149 - John Doe' },
            { Key: 'CreditPartyName', Value: '600100 - Mama Mboga' },
            { Key: 'ReceiptNo', Value: 'TK60708BHZ' },
          ],
        },
      },
    };
    const masked = JSON.parse(withoutPayer(JSON.stringify(body))) as typeof body;
    expect(masked.Result.ResultParameters.ResultParameter).toEqual([
      { Key: 'DebitPartyName', Value: '*****' },
      { Key: 'CreditPartyName', Value: '600100 - Mama Mboga' },
      { Key: 'ReceiptNo', Value: 'TK60708BHZ' },
    ]);
  });

  it('keeps a body that is not JSON as it is', () => {
    expect(withoutPayer('not json')).toBe('not json');
  });
});
