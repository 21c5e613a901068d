/** A batch file read whole or refused whole, with each row's problem: odd, overlong and bad input. */
import { describe, expect, it } from 'vitest';
import { PAYOUT_BATCH_MAX_ROWS } from '@mpesa/shared/contract-payouts';
import { chargeCents } from './payout-results.ts';
import { csvRecords, readPayoutCsv } from './payout-csv.ts';

describe('readPayoutCsv', () => {
  it('takes a phone, a paybill with its account and a till, guessing each kind', () => {
    const read = readPayoutCsv(
      '\uFEFFTo,Amount,Reason,Account\r\n0708 374 149,"1,500",Wages,\r\n600000,2000,Stock,INV-7\r\n700700,300,"Milk, eggs",\r\n\r\n',
    );
    expect(read).toEqual({
      ok: true,
      lines: [
        {
          kind: 'BusinessPayment',
          to: '254708374149',
          account: null,
          amount: 1500,
          reason: 'Wages',
        },
        { kind: 'BusinessPayBill', to: '600000', account: 'INV-7', amount: 2000, reason: 'Stock' },
        {
          kind: 'BusinessBuyGoods',
          to: '700700',
          account: null,
          amount: 300,
          reason: 'Milk, eggs',
        },
      ],
    });
  });

  it('refuses the whole file with each bad row’s problems', () => {
    const read = readPayoutCsv(
      [
        'kind,to,amount,reason',
        'SalaryPayment,0708374149,1500,Wages',
        'SalaryPayment,0800,1500,Wages',
        'BusinessPayment,0708374149,9,x',
        'Teleport,0708374149,100,Why',
        'SalaryPayment,0708374149,1.5,Wages',
        'BusinessPayBill,600000,100,No account',
      ].join('\n'),
    );
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problems.map(({ row, field }) => [row, field])).toEqual([
      [2, 'to'],
      [3, 'amount'],
      [3, 'reason'],
      [4, 'kind'],
      [5, 'amount'],
      [6, 'account'],
    ]);
    expect(read.problems[0]!.message).toBe('Please enter a valid Kenyan phone number');
  });

  it.each([
    ['no header', '0708374149,100,Wages', 'Missing'],
    ['only a header', 'to,amount,reason\n', 'no payouts'],
    ['a quote never closed', 'to,amount,reason\n"0708374149,100,Wages', 'never closed'],
    ['too many fields', 'to,amount,reason\n0708374149,100,Wages,extra', 'has 4 fields'],
  ])('refuses %s in a sentence', (_case, text, words) => {
    const read = readPayoutCsv(text);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.problems[0]!.message).toContain(words);
  });

  it('refuses a file over the most rows, and overlong or control-character fields', () => {
    const many = [
      'to,amount,reason',
      ...Array(PAYOUT_BATCH_MAX_ROWS + 1).fill('0708374149,100,Wages'),
    ];
    expect(readPayoutCsv(many.join('\n'))).toMatchObject({ ok: false });
    const odd = readPayoutCsv(
      `to,amount,reason,account\n600000,100,${'r'.repeat(101)},${'A'.repeat(14)}\n0708374149,100,\u0000\u0007,`,
    );
    expect(odd.ok).toBe(false);
    if (!odd.ok) expect(odd.problems.map((p) => p.field)).toEqual(['account', 'reason', 'reason']);
  });

  it('reads quotes as RFC 4180 has them', () => {
    expect(csvRecords('a,"b ""c""",d\n')).toEqual([['a', 'b "c"', 'd']]);
  });
});

describe('chargeCents', () => {
  it.each([
    ['Fee For B2C Payment|KES|22.40', 2240],
    ['', 0],
    [null, null],
    ['nonsense', null],
  ])('%s → %s', (text, cents) => expect(chargeCents(text)).toBe(cents));
});
