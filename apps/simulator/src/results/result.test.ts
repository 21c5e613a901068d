/**
 * The asynchronous APIs' acknowledgement and Result, exactly as docs/daraja-protocol.md §M1.1 and
 * §M1.3 show them, and each setting of §M1.6 for the shapes sources disagree on.
 */
import { describe, expect, it } from 'vitest';
import {
  conversationId,
  gatewayOriginatorConversationId,
  placeholderTransactionId,
} from './ids.ts';
import {
  acknowledgement,
  buildNotice,
  buildResult,
  startConversation,
  type ResultOutcome,
  type ResultStyle,
} from './result.ts';

const CAPTURED: ResultStyle = {
  resultStrings: false,
  resultFailureParameter: false,
  resultReferenceArray: false,
};
/** 22:48:52 in Nairobi on 6 July 2024. */
const AT = new Date('2024-07-06T19:48:52Z');
const CONVERSATION = {
  originatorConversationId: '53e3-4aa8-9fe0-8fb5e4092cdd3533373',
  conversationId: 'AG_20240706_2010364430d9bbdaf872',
};
const B2C_INTERNAL = 'https://internalsandbox.safaricom.co.ke/mpesa/b2cresults/v1/submit';

/** A B2C payout as the sandbox reported one in 2024 (§M1.3, §M4.3). */
const PAID: ResultOutcome = {
  conversation: CONVERSATION,
  resultCode: '0',
  resultDesc: 'The service request is processed successfully.',
  transactionId: 'SG632NMUAB',
  queue: 'b2c',
  parameters: [
    { Key: 'TransactionAmount', Value: 10 },
    { Key: 'TransactionReceipt', Value: 'SG632NMUAB' },
    { Key: 'TransactionCompletedDateTime', Value: '06.07.2024 22:48:52' },
    { Key: 'B2CUtilityAccountAvailableFunds', Value: 8959269.6 },
    { Key: 'B2CChargesPaidAccountAvailableFunds', Value: -1980 },
  ],
};
const REFUSED: ResultOutcome = {
  conversation: CONVERSATION,
  resultCode: '2001',
  resultDesc: 'The initiator information is invalid.',
  queue: 'b2c',
};

describe('the ids (§M1.1, §M1.3)', () => {
  it('dates the ConversationID in Nairobi, with 20 hex digits after it', () => {
    // 22:30 UTC is 01:30 the next day in Nairobi.
    expect(conversationId(new Date('2024-07-06T22:30:00Z'))).toMatch(/^AG_20240707_[0-9a-f]{20}$/);
  });

  it('makes the gateway’s OriginatorConversationID in its hex style, a new one each time', () => {
    const id = gatewayOriginatorConversationId();
    expect(id).toMatch(/^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\d{4,7}$/);
    expect(gatewayOriginatorConversationId()).not.toBe(id);
  });

  it('makes a placeholder TransactionID of three letters, the year’s first, and seven zeros', () => {
    expect(placeholderTransactionId(AT)).toMatch(/^S[A-Z]{2}0000000$/);
    expect(placeholderTransactionId(new Date('2020-06-25T20:24:27Z'))).toMatch(/^O[A-Z]{2}0{7}$/);
  });

  it('keeps the OriginatorConversationID a client sent, and makes one otherwise', () => {
    expect(startConversation(AT, '600997_Test_32et3241ed8yu')).toEqual({
      originatorConversationId: '600997_Test_32et3241ed8yu',
      conversationId: expect.stringMatching(/^AG_20240706_[0-9a-f]{20}$/),
    });
    expect(startConversation(AT).originatorConversationId).toMatch(/^[0-9a-f]{4}-/);
  });
});

describe('the acknowledgement (§M1.1)', () => {
  it('is the two ids, ResponseCode as the string "0" and the description with its full stop', () => {
    expect(JSON.stringify(acknowledgement(CONVERSATION))).toBe(
      JSON.stringify({
        OriginatorConversationID: CONVERSATION.originatorConversationId,
        ConversationID: CONVERSATION.conversationId,
        ResponseCode: '0',
        ResponseDescription: 'Accept the service request successfully.',
      }),
    );
  });
});

describe('the Result (§M1.3), as captured traffic has it by default', () => {
  it('writes a success with numbers as numbers, the parameters an array, ReferenceItem an object', () => {
    expect(buildResult(PAID, CAPTURED, AT)).toEqual({
      Result: {
        ResultType: 0,
        ResultCode: 0,
        ResultDesc: 'The service request is processed successfully.',
        OriginatorConversationID: CONVERSATION.originatorConversationId,
        ConversationID: CONVERSATION.conversationId,
        TransactionID: 'SG632NMUAB',
        ResultParameters: { ResultParameter: PAID.parameters },
        ReferenceData: { ReferenceItem: { Key: 'QueueTimeoutURL', Value: B2C_INTERNAL } },
      },
    });
  });

  it('writes the fields in Daraja’s order', () => {
    expect(Object.keys(buildResult(PAID, CAPTURED, AT).Result)).toEqual([
      'ResultType',
      'ResultCode',
      'ResultDesc',
      'OriginatorConversationID',
      'ConversationID',
      'TransactionID',
      'ResultParameters',
      'ReferenceData',
    ]);
  });

  it('writes a failure with no ResultParameters and a placeholder TransactionID', () => {
    const { Result } = buildResult({ ...REFUSED, parameters: PAID.parameters }, CAPTURED, AT);
    expect(Result).toEqual({
      ResultType: 0,
      ResultCode: 2001,
      ResultDesc: 'The initiator information is invalid.',
      OriginatorConversationID: CONVERSATION.originatorConversationId,
      ConversationID: CONVERSATION.conversationId,
      TransactionID: expect.stringMatching(/^S[A-Z]{2}0000000$/),
      ReferenceData: { ReferenceItem: { Key: 'QueueTimeoutURL', Value: B2C_INTERNAL } },
    });
    expect('ResultParameters' in Result).toBe(false);
  });

  it.each([
    ['R000002', 'reversal'],
    ['SFC_IC0003', 'b2c'],
  ])('writes %s, a code with letters, as a string', (code, queue) => {
    const { Result } = buildResult({ ...REFUSED, resultCode: code, queue }, CAPTURED, AT);
    expect(Result.ResultCode).toBe(code);
    expect(Result.ReferenceData.ReferenceItem).toEqual({
      Key: 'QueueTimeoutURL',
      Value: `https://internalsandbox.safaricom.co.ke/mpesa/${queue}results/v1/submit`,
    });
  });

  it('keeps a failure’s TransactionID when its API gives one', () => {
    const result = buildResult({ ...REFUSED, transactionId: 'SG722NMVXQ' }, CAPTURED, AT);
    expect(result.Result.TransactionID).toBe('SG722NMVXQ');
  });

  it('writes other ReferenceItems when given: a key with no Value, and several as an array', () => {
    const occasion = buildResult({ ...PAID, reference: [{ Key: 'Occasion' }] }, CAPTURED, AT);
    expect(occasion.Result.ReferenceData).toEqual({ ReferenceItem: { Key: 'Occasion' } });
    const reference = [{ Key: 'BillReferenceNumber', Value: '19008' }, { Key: 'QueueTimeoutURL' }];
    const both = buildResult({ ...PAID, reference }, CAPTURED, AT);
    expect(both.Result.ReferenceData).toEqual({ ReferenceItem: reference });
  });

  it('keeps a parameter that has no Value without one', () => {
    const parameters = [{ Key: 'TransactionReason' }, { Key: 'Amount', Value: 300 }];
    const result = buildResult({ ...PAID, parameters }, CAPTURED, AT);
    expect(result.Result.ResultParameters).toEqual({ ResultParameter: parameters });
  });
});

describe('the settings for the shapes sources disagree on (§M1.6)', () => {
  it('SIM_RESULT_STRINGS writes ResultType, ResultCode and numeric values as strings', () => {
    const { Result } = buildResult(PAID, { ...CAPTURED, resultStrings: true }, AT);
    expect(Result).toMatchObject({ ResultType: '0', ResultCode: '0' });
    expect(Result.ResultParameters?.ResultParameter).toEqual([
      { Key: 'TransactionAmount', Value: '10' },
      { Key: 'TransactionReceipt', Value: 'SG632NMUAB' },
      { Key: 'TransactionCompletedDateTime', Value: '06.07.2024 22:48:52' },
      { Key: 'B2CUtilityAccountAvailableFunds', Value: '8959269.6' },
      { Key: 'B2CChargesPaidAccountAvailableFunds', Value: '-1980' },
    ]);
    const refused = buildResult(REFUSED, { ...CAPTURED, resultStrings: true }, AT);
    expect(refused.Result).toMatchObject({ ResultType: '0', ResultCode: '2001' });
  });

  it('SIM_RESULT_FAILURE_PARAMETER gives a failure one ResultParameter, an object: BOCompletedTime', () => {
    const style = { ...CAPTURED, resultFailureParameter: true };
    const { Result } = buildResult(REFUSED, style, AT);
    expect(Result.ResultParameters).toEqual({
      ResultParameter: { Key: 'BOCompletedTime', Value: 20240706224852 },
    });
    const asText = buildResult(REFUSED, { ...style, resultStrings: true }, AT);
    expect(asText.Result.ResultParameters).toEqual({
      ResultParameter: { Key: 'BOCompletedTime', Value: '20240706224852' },
    });
    // Whatever parameters its API gave it: the captured shape carries BOCompletedTime alone.
    const given = buildResult({ ...REFUSED, parameters: PAID.parameters }, style, AT);
    expect(given.Result.ResultParameters).toEqual(Result.ResultParameters);
    // A success keeps its array.
    const paid = buildResult(PAID, style, AT);
    expect(paid.Result.ResultParameters).toEqual({ ResultParameter: PAID.parameters });
  });

  it('SIM_RESULT_REFERENCE_ARRAY writes ReferenceItem as an array of its one item', () => {
    const { Result } = buildResult(PAID, { ...CAPTURED, resultReferenceArray: true }, AT);
    expect(Result.ReferenceData).toEqual({
      ReferenceItem: [{ Key: 'QueueTimeoutURL', Value: B2C_INTERNAL }],
    });
  });
});

describe('the QueueTimeOutURL notice (§M1.4)', () => {
  it('is a failed Result with the request’s ids, code 1, no parameters and a placeholder', () => {
    expect(buildNotice(PAID, CAPTURED, AT)).toEqual({
      Result: {
        ResultType: 0,
        ResultCode: 1,
        ResultDesc: 'The service request has timed out.',
        OriginatorConversationID: CONVERSATION.originatorConversationId,
        ConversationID: CONVERSATION.conversationId,
        TransactionID: expect.stringMatching(/^S[A-Z]{2}0000000$/),
        ReferenceData: { ReferenceItem: { Key: 'QueueTimeoutURL', Value: B2C_INTERNAL } },
      },
    });
  });
});
