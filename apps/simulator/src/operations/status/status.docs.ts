/**
 * Transaction status as the simulator's description shows it (docs/daraja-protocol.md §M5). For
 * the description only (daraja/docs.ts says why).
 */
import { z } from 'zod';
import { numeric } from '../../daraja/docs.ts';
import { COMMON_FIELDS, IDENTIFIER_TYPE, resultApiDocs } from '../../results/result-docs.ts';

const body = z.object({
  ...COMMON_FIELDS,
  CommandID: z.literal('TransactionStatusQuery'),
  TransactionID: z.string().optional().describe('The receipt asked about (or the next field)'),
  OriginalConversationID: z
    .string()
    .optional()
    .describe(
      "The OriginatorConversationID of the transaction asked about (note the key's spelling)",
    ),
  PartyA: numeric(
    'A party to the transaction, its shortcode or the customer number, matched by its digits whatever IdentifierType says',
  ),
  IdentifierType: IDENTIFIER_TYPE,
  Occasion: z.string().optional().describe('Up to 100 characters; comes back as the ReferenceItem'),
});

const example = {
  Initiator: 'testapi',
  SecurityCredential: '<base64 from GET /_sim/certificate>',
  CommandID: 'TransactionStatusQuery',
  TransactionID: 'UCE31H462N',
  PartyA: '174379',
  IdentifierType: '4',
  ResultURL: 'https://pay.example.com/mpesa/status/result',
  QueueTimeOutURL: 'https://pay.example.com/mpesa/status/timeout',
  Remarks: 'OK',
  Occasion: 'OK',
};

const result = {
  Result: {
    ResultType: 0,
    ResultCode: 0,
    ResultDesc: 'The service request is processed successfully.',
    OriginatorConversationID: '53e3-4aa8-9fe0-8fb5e4092cdd3533373',
    ConversationID: 'AG_20260314_20106e9209f64bebd05b',
    TransactionID: 'UKQ0000000',
    ResultParameters: {
      ResultParameter: [
        { Key: 'DebitPartyName', Value: '254708374149 - John Doe' },
        { Key: 'DebitPartyName', Value: '174379 - Sandbox Test Merchant' },
        { Key: 'OriginatorConversationID' },
        { Key: 'InitiatedTime', Value: '20260314122653' },
        { Key: 'DebitAccountType', Value: 'MMF Account For Customer' },
        { Key: 'DebitPartyCharges' },
        { Key: 'TransactionReason' },
        { Key: 'ReasonType', Value: 'Pay Bill Online' },
        { Key: 'TransactionStatus', Value: 'Completed' },
        { Key: 'FinalisedTime', Value: '20260314122653' },
        { Key: 'Amount', Value: '300' },
        { Key: 'ConversationID' },
        { Key: 'ReceiptNo', Value: 'UCE31H462N' },
      ],
    },
    ReferenceData: { ReferenceItem: { Key: 'Occasion', Value: 'OK' } },
  },
};

export const statusDocs = () =>
  resultApiDocs({
    path: '/mpesa/transactionstatus/v1/query',
    summary: 'Ask for the state of any transaction (transaction status)',
    description:
      'Finds a transaction of the simulated ledger (STK push, C2B, B2C, B2B or reversal) by ' +
      '`TransactionID` (its receipt) or `OriginalConversationID` (its OriginatorConversationID), ' +
      'and posts its state to ResultURL: parameters as Daraja names and types them, ' +
      '`DebitPartyName` twice. A transaction PartyA has no part in, or none at all, gets ' +
      '`R000002` "The OriginalTransactionID is invalid." (the simulator\'s choice: Daraja\'s is ' +
      'not known).',
    body,
    example,
    result,
    invalidField: 'TransactionID',
  });
