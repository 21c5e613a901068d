/**
 * Reversal as the simulator's description shows it (docs/daraja-protocol.md §M7). For the
 * description only (daraja/docs.ts says why).
 */
import { z } from 'zod';
import { numeric } from '../../daraja/docs.ts';
import { COMMON_FIELDS, resultApiDocs } from '../../results/result-docs.ts';

const body = z.object({
  ...COMMON_FIELDS,
  CommandID: z.literal('TransactionReversal'),
  TransactionID: z.string().describe('The receipt of the C2B or STK push payment to reverse'),
  Amount: numeric("The payment's amount (the whole payment is reversed, whatever it says)"),
  ReceiverParty: numeric('The shortcode that received the payment'),
  RecieverIdentifierType: numeric(
    '11 (the docs) or 4 (the Postman collection). Spelt so: `ReceiverIdentifierType` is ignored',
  ),
  Occasion: z.string().optional().describe('Up to 100 characters'),
});

export const reversalDocs = () =>
  resultApiDocs({
    path: '/mpesa/reversal/v1/request',
    summary: "Reverse a customer's payment to a shortcode (reversal)",
    description:
      "Moves a C2B or STK push payment back from the shortcode's account to the customer's " +
      'wallet in the simulated ledger, whole, once. `R000001` when already reversed; `R000002` ' +
      'for an unknown receipt, a B2C or B2B payment (not reversible by API), a reversal, or a ' +
      "payment ReceiverParty did not receive; `1` when the shortcode's account cannot pay it back.",
    body,
    example: {
      Initiator: 'testapi',
      SecurityCredential: '<base64 from GET /_sim/certificate>',
      CommandID: 'TransactionReversal',
      TransactionID: 'UCE31H462N',
      Amount: '200',
      ReceiverParty: '174379',
      RecieverIdentifierType: '11',
      ResultURL: 'https://pay.example.com/mpesa/reversal/result',
      QueueTimeOutURL: 'https://pay.example.com/mpesa/reversal/timeout',
      Remarks: 'Payment reversal',
    },
    result: {
      Result: {
        ResultType: 0,
        ResultCode: 0,
        ResultDesc: 'The service request is processed successfully.',
        OriginatorConversationID: '53e3-4aa8-9fe0-8fb5e4092cdd3533373',
        ConversationID: 'AG_20260314_20106e9209f64bebd05b',
        TransactionID: 'UCE52PAWR9',
        ResultParameters: {
          ResultParameter: [
            {
              Key: 'DebitAccountBalance',
              Value: 'Utility Account|KES|999800.00|999800.00|0.00|0.00',
            },
            { Key: 'Amount', Value: 200 },
            { Key: 'TransCompletedTime', Value: 20260314132711 },
            { Key: 'OriginalTransactionID', Value: 'UCE31H462N' },
            { Key: 'Charge', Value: 0 },
            { Key: 'CreditPartyPublicName', Value: '254708374149 - John Doe' },
            { Key: 'DebitPartyPublicName', Value: '174379 - Sandbox Test Merchant' },
          ],
        },
        ReferenceData: {
          ReferenceItem: {
            Key: 'QueueTimeoutURL',
            Value: 'https://internalsandbox.safaricom.co.ke/mpesa/reversalresults/v1/submit',
          },
        },
      },
    },
    invalidField: 'RecieverIdentifierType',
  });
