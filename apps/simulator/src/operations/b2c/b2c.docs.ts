/**
 * B2C as the simulator's description shows it (docs/daraja-protocol.md §M4). For the description
 * only (daraja/docs.ts says why).
 */
import { z } from 'zod';
import { invalidField } from '../../catalogue.ts';
import {
  CALL_REFUSALS,
  DARAJA_TAGS,
  METHOD_NOT_ALLOWED,
  bearer,
  numeric,
  refusals,
} from '../../daraja/docs.ts';
import { ACCEPTED_DESCRIPTION } from '../../results/result.ts';
import type { RouteDocs } from '../../route-docs.ts';
import { B2C_PATHS, DUPLICATE_ORIGINATOR } from './b2c.routes.ts';
import { B2C_COMMANDS } from './validation.ts';

/** The acknowledgement every request of the Result family gets (§M1.1). */
export const acknowledged = z
  .object({
    OriginatorConversationID: z.string(),
    ConversationID: z.string(),
    ResponseCode: z.literal('0'),
    ResponseDescription: z.literal(ACCEPTED_DESCRIPTION),
  })
  .meta({
    description:
      'Accepted for processing, not paid: the Result posted to ResultURL says how it ended.',
    'x-examples': {
      accepted: {
        summary: 'Accepted',
        value: {
          OriginatorConversationID: '600997_Test_32et3241ed8yu',
          ConversationID: 'AG_20260314_20106e9209f64bebd05b',
          ResponseCode: '0',
          ResponseDescription: ACCEPTED_DESCRIPTION,
        },
      },
    },
  });

/** The refusals of a payment request of the Result family: `field` names an example. */
export function paymentRefusals(field: string, more: Parameters<typeof refusals>[0] = {}) {
  return refusals({
    invalidField: {
      summary: 'A field missing, misspelt or not valid; a missing or spoilt SecurityCredential',
      failure: invalidField(field),
    },
    ...more,
    invalidPayload: CALL_REFUSALS.invalidPayload,
    invalidToken: CALL_REFUSALS.invalidToken,
    invalidAuthHeader: CALL_REFUSALS.invalidAuthHeader,
  });
}

const text = (description: string) => z.string().describe(description);

function body(version: 'v1' | 'v3') {
  return z
    .object({
      ...(version === 'v3' && {
        OriginatorConversationID: text(
          'Your unique id for this payout; a repeat within 24 hours is refused (500.002.1001)',
        ),
      }),
      InitiatorName: text('The initiator (not `Initiator`, as the other APIs name it)'),
      SecurityCredential: text("The initiator's password, encrypted (GET /_sim/certificate)"),
      CommandID: z.enum(B2C_COMMANDS),
      Amount: numeric('Whole shillings; below 10 or above 250,000 fails in the Result (2, 3)'),
      PartyA: numeric('The B2C shortcode that pays, 5 to 7 digits'),
      PartyB: numeric("The customer's number, 12 digits: 2547XXXXXXXX"),
      Remarks: text('2 to 100 characters'),
      QueueTimeOutURL: text('Where a timeout notice goes (only with SIM_QUEUE_TIMEOUT_NOTICE_MS)'),
      ResultURL: text('Where the Result is posted'),
      Occassion: text('Optional, 1 to 100 characters; `Occasion` is taken too').optional(),
    })
    .meta({
      'x-examples': {
        payout: {
          summary: 'Pay KES 10 to the sandbox persona',
          value: {
            ...(version === 'v3' && { OriginatorConversationID: '600997_Test_32et3241ed8yu' }),
            InitiatorName: 'testapi',
            SecurityCredential: 'KcsVnMVUnL3pL7C/G1slRFPI9yMBLlKRUnVZGKQQ15fF…',
            CommandID: 'BusinessPayment',
            Amount: '10',
            PartyA: '600992',
            PartyB: '254705912645',
            Remarks: 'remarked',
            QueueTimeOutURL: 'https://example.com/b2c/timeout',
            ResultURL: 'https://example.com/b2c/result',
            Occassion: 'ChristmasPay',
          },
        },
      },
    });
}

const DESCRIPTION =
  'Acknowledged at once; the payout is made then (from PartyA’s Utility Account to the wallet, ' +
  'KES 22.40 into its Charges Paid Account) and its Result posted to ResultURL after ' +
  '`SIM_CALLBACK_DELAY_MS`. Failures (1, 2, 3, 4, 8, 2040, SFC_IC0003, and 2001/8006 for the ' +
  'credential) come in the Result, not here; the README lists the numbers that force each.\n\n';

export function b2cDocs(): Record<string, RouteDocs> {
  return {
    [`POST ${B2C_PATHS.v3}`]: {
      summary: 'Pay a customer from a B2C shortcode (v3)',
      description: DESCRIPTION + METHOD_NOT_ALLOWED('POST'),
      tags: DARAJA_TAGS,
      headers: bearer,
      body: body('v3'),
      response: {
        200: acknowledged,
        ...paymentRefusals('InitiatorName', {
          duplicate: {
            summary: 'An OriginatorConversationID used before',
            failure: DUPLICATE_ORIGINATOR,
          },
        }),
      },
    },
    [`POST ${B2C_PATHS.v1}`]: {
      summary:
        'Pay a customer from a B2C shortcode (v1: the gateway makes the OriginatorConversationID)',
      description: DESCRIPTION + METHOD_NOT_ALLOWED('POST'),
      tags: DARAJA_TAGS,
      headers: bearer,
      body: body('v1'),
      response: { 200: acknowledged, ...paymentRefusals('InitiatorName') },
    },
  };
}
