import { describe, expect, it } from 'vitest';
import { fixture } from '../test/fixtures.ts';
import { parameter, parseResult, type DarajaResult } from './result-parser.ts';

function parsed(body: unknown): DarajaResult {
  const read = parseResult(body);
  if (!read.ok) throw new Error(read.problem);
  return read.result;
}

describe('a Result as Daraja posts it', () => {
  it('reads a reversal that succeeded: numeric code as text, parameters by key', () => {
    const result = parsed(fixture('reversal-result-success.json'));
    expect(result).toMatchObject({
      resultCode: '0',
      conversationId: 'AG_20211114_201018edbbf9f1582eaa',
      originatorConversationId: 'dad6-4c34-8787-c8cb963a496d1268232',
      transactionId: 'SKE52PAWR9',
    });
    expect(parameter(result, 'OriginalTransactionID')).toBe('SKC82PACB8');
    expect(parameter(result, 'Amount')).toBe('1');
    expect(result.references).toEqual([
      {
        key: 'QueueTimeoutURL',
        value: 'https://internalsandbox.safaricom.co.ke/mpesa/reversalresults/v1/submit',
      },
    ]);
  });

  it('reads a string code and no parameters (a reversal of an unknown receipt)', () => {
    const result = parsed(fixture('reversal-result-failure.json'));
    expect(result).toMatchObject({
      resultCode: 'R000002',
      transactionId: 'SKE0000000',
      parameters: [],
    });
  });

  it('reads one ResultParameter object, as failures carry it', () => {
    const result = parsed(fixture('balance-result-failure-object-param.json'));
    expect(result.resultCode).toBe('2001');
    expect(result.parameters).toEqual([{ key: 'BOCompletedTime', value: '20200625232427' }]);
  });

  it('keeps a repeated key and a key with no Value (transaction status)', () => {
    const result = parsed(fixture('status-result-success.json'));
    expect(result.parameters.filter((item) => item.key === 'DebitPartyName')).toEqual([
      { key: 'DebitPartyName', value: '600310 - Safaricom333' },
      { key: 'DebitPartyName', value: '254708374149 - John Doe' },
    ]);
    expect(parameter(result, 'TransactionReason')).toBeNull();
    expect(parameter(result, 'TransactionStatus')).toBe('Completed');
    expect(result.references).toEqual([{ key: 'Occasion', value: null }]);
  });

  it('reads the other captured shapes (B2C, account balance)', () => {
    for (const name of [
      'b2c-result-success.json',
      'b2c-result-failure.json',
      'balance-result.json',
    ]) {
      expect(parseResult(fixture(name)).ok).toBe(true);
    }
  });

  it('says why a body is not a Result, and never throws', () => {
    for (const body of [null, 'text', [], {}, { Result: {} }, { Result: { ResultCode: 0 } }]) {
      const read = parseResult(body);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.problem).toMatch(/^not a Daraja Result: /);
    }
    const overlong = fixture<{ Result: Record<string, unknown> }>('reversal-result-failure.json');
    overlong.Result.ConversationID = 'A'.repeat(5000);
    expect(parseResult(overlong).ok).toBe(false);
  });
});
