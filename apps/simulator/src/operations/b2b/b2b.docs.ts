/**
 * B2B as the simulator's description shows it (docs/daraja-protocol.md §M8.1). For the description
 * only (daraja/docs.ts says why).
 */
import { z } from 'zod';
import { DARAJA_TAGS, METHOD_NOT_ALLOWED, bearer, numeric } from '../../daraja/docs.ts';
import type { RouteDocs } from '../../route-docs.ts';
import { acknowledged, paymentRefusals } from '../b2c/b2c.docs.ts';
import { B2B_PATH } from './b2b.routes.ts';
import { B2B_COMMANDS, MAX_ACCOUNT_REFERENCE } from './validation.ts';

const text = (description: string) => z.string().describe(description);

const body = z
  .object({
    Initiator: text('The initiator'),
    SecurityCredential: text("The initiator's password, encrypted (GET /_sim/certificate)"),
    CommandID: z
      .enum(B2B_COMMANDS)
      .describe(
        'The two Daraja documents; older words SDKs send (BusinessToBusinessTransfer, MerchantToMerchantTransfer, DisburseFundsToBusiness) get 400.002.02 Invalid CommandID',
      ),
    SenderIdentifierType: numeric('4'),
    RecieverIdentifierType: numeric(
      '4 (2 taken too). Spelt so: the correct spelling is not read, and the field is then missing',
    ),
    Amount: numeric('Whole shillings'),
    PartyA: numeric('Your shortcode, which pays from its Working Account'),
    PartyB: numeric('The paybill (BusinessPayBill) or till (BusinessBuyGoods) paid'),
    AccountReference: text(
      `Up to ${MAX_ACCOUNT_REFERENCE} characters; needed for BusinessPayBill`,
    ).optional(),
    Requester: numeric("Optional: the consumer's number, 2547XXXXXXXX").optional(),
    Remarks: text('Up to 100 characters'),
    QueueTimeOutURL: text('Where a timeout notice goes (only with SIM_QUEUE_TIMEOUT_NOTICE_MS)'),
    ResultURL: text('Where the Result is posted'),
    Occassion: text('Optional').optional(),
  })
  .meta({
    'x-examples': {
      payBill: {
        summary: 'Pay KES 190 to paybill 000000, account 353353',
        value: {
          Initiator: 'testapi',
          SecurityCredential: 'KcsVnMVUnL3pL7C/G1slRFPI9yMBLlKRUnVZGKQQ15fF…',
          CommandID: 'BusinessPayBill',
          SenderIdentifierType: '4',
          RecieverIdentifierType: '4',
          Amount: '190',
          PartyA: '600992',
          PartyB: '600000',
          AccountReference: '353353',
          Requester: '254708374149',
          Remarks: 'OK',
          QueueTimeOutURL: 'https://example.com/b2b/timeout',
          ResultURL: 'https://example.com/b2b/result',
        },
      },
    },
  });

export function b2bDocs(): Record<string, RouteDocs> {
  return {
    [`POST ${B2B_PATH}`]: {
      summary: 'Pay another business: a paybill (BusinessPayBill) or a till (BusinessBuyGoods)',
      description:
        'Acknowledged at once; the payment is made then (from PartyA’s Working Account to ' +
        'PartyB’s Utility Account, or a till’s Merchant Account) and its Result posted to ' +
        'ResultURL after `SIM_CALLBACK_DELAY_MS`. Failures (1, 2028, SFC_IC0003, and 2001/8006 ' +
        'for the credential) come in the Result; the README lists the shortcodes that force ' +
        'each.\n\n' +
        METHOD_NOT_ALLOWED('POST'),
      tags: DARAJA_TAGS,
      headers: bearer,
      body,
      response: { 200: acknowledged, ...paymentRefusals('RecieverIdentifierType') },
    },
  };
}
