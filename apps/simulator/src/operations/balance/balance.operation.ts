/**
 * Account balance (docs/daraja-protocol.md §M6): the balance of the initiator's own shortcode, from
 * the ledger, in Daraja's `&`/`|` string. "Own" is any shortcode the ledger knows (§M6.1): the
 * simulator's own (SIM_SHORTCODE), one set through PUT /_sim/ledger/shortcodes/:shortcode, or one
 * that has taken part in a payment; any other gets 21, the role missing.
 */
import { z } from 'zod';
import { numeric } from '../../daraja/docs.ts';
import { eatNumber } from '../../ids.ts';
import { SHORTCODE } from '../../money/accounts.ts';
import type { FieldReader, ResultUrls } from '../../results/request-fields.ts';
import { FAMILY_CODES, failed, resultOperation, type Decided } from '../../results/result-api.ts';
import { COMMON_FIELDS, IDENTIFIER_TYPE, resultApiDocs } from '../../results/result-docs.ts';
import type { OperationContext } from '../operation.ts';

export const BALANCE_PATH = '/mpesa/accountbalance/v1/query';

export interface BalanceRequest extends ResultUrls {
  partyA: string;
}

function read(fields: FieldReader): BalanceRequest {
  fields.command('AccountBalance');
  const partyA = fields.digits('PartyA', SHORTCODE);
  // 4 a shortcode (the docs' only value), 2 a till: a balance is a business's.
  fields.oneOf('IdentifierType', ['2', '4']);
  fields.text('Remarks');
  return { partyA, ...fields.urls() };
}

function decide(
  { partyA }: BalanceRequest,
  _ids: unknown,
  { ledger, clock }: OperationContext,
): Decided {
  if (!ledger.shortcodes().some((book) => book.shortcode === partyA)) return failed('21');
  return {
    resultCode: '0',
    resultDesc: FAMILY_CODES['0']!,
    parameters: [
      { Key: 'AccountBalance', Value: ledger.balanceString(partyA) },
      // A number, as captured; SIM_RESULT_STRINGS writes it as the docs' string (§M6).
      { Key: 'BOCompletedTime', Value: eatNumber(clock.now()) },
    ],
  };
}

const body = z.object({
  ...COMMON_FIELDS,
  CommandID: z.literal('AccountBalance'),
  PartyA: numeric("The initiator's own shortcode: one the simulated ledger knows"),
  IdentifierType: IDENTIFIER_TYPE,
});

const docs = () =>
  resultApiDocs({
    path: BALANCE_PATH,
    summary: "Ask for a shortcode's balance (account balance)",
    description:
      "Posts the shortcode's accounts, from the simulated ledger (GET /_sim/ledger), as Daraja's " +
      '`&`/`|` string, and `BOCompletedTime`. A shortcode the ledger does not know is not the ' +
      'initiator\'s own: its Result has 21 "The initiator is not allowed to initiate this request".',
    body,
    example: {
      Initiator: 'testapi',
      SecurityCredential: '<base64 from GET /_sim/certificate>',
      CommandID: 'AccountBalance',
      PartyA: '174379',
      IdentifierType: '4',
      Remarks: 'ok',
      QueueTimeOutURL: 'https://pay.example.com/mpesa/balance/timeout',
      ResultURL: 'https://pay.example.com/mpesa/balance/result',
    },
    result: {
      Result: {
        ResultType: 0,
        ResultCode: 0,
        ResultDesc: 'The service request is processed successfully.',
        OriginatorConversationID: '53e3-4aa8-9fe0-8fb5e4092cdd3533373',
        ConversationID: 'AG_20260314_20106e9209f64bebd05b',
        TransactionID: 'UKQ0000000',
        ResultParameters: {
          ResultParameter: [
            {
              Key: 'AccountBalance',
              Value:
                'Working Account|KES|500000.00|500000.00|0.00|0.00&Float Account|KES|0.00|0.00|0.00|0.00&Utility Account|KES|1000000.00|1000000.00|0.00|0.00&Charges Paid Account|KES|0.00|0.00|0.00|0.00&Organization Settlement Account|KES|0.00|0.00|0.00|0.00',
            },
            { Key: 'BOCompletedTime', Value: 20260314122653 },
          ],
        },
        ReferenceData: {
          ReferenceItem: {
            Key: 'QueueTimeoutURL',
            Value: 'https://internalsandbox.safaricom.co.ke/mpesa/abresults/v1/submit',
          },
        },
      },
    },
    invalidField: 'PartyA',
  });

export const balance = resultOperation({
  name: 'balance',
  target: 'accountbalance',
  path: BALANCE_PATH,
  queue: 'ab',
  keptKey: 'balanceResults',
  read,
  decide,
  docs,
});
