/**
 * STK push and STK query as the simulator's description shows them (docs/daraja-protocol.md §3,
 * §5): request and answer shapes, and an example of each answer made from the same catalogue the
 * routes answer from (catalogue.ts). For the description only (daraja/docs.ts says why).
 */
import { z } from 'zod';
import {
  ERRORS,
  PUSH_ACCEPTED,
  QUERY_ACCEPTED,
  RESULT_CODES,
  invalidField,
} from '../../catalogue.ts';
import type { SimulatorConfig } from '../../config.ts';
import {
  CALL_REFUSALS,
  DARAJA_TAGS,
  METHOD_NOT_ALLOWED,
  SAMPLE,
  bearer,
  numeric,
  refusals,
} from '../../daraja/docs.ts';
import type { RouteDocs } from '../../route-docs.ts';
import { stkPassword } from './password.ts';

/** The fields push and query share, and an example of them for the shortcode. */
function credentials(config: SimulatorConfig) {
  return {
    schema: {
      BusinessShortCode: numeric('The shortcode (SIM_SHORTCODE)'),
      Password: z.string().describe('base64(BusinessShortCode + passkey + Timestamp)'),
      Timestamp: z.string().describe('YYYYMMDDHHmmss, Nairobi time: the one in the Password'),
    },
    example: {
      BusinessShortCode: config.shortcode,
      Password: stkPassword(config.shortcode, config.passkey, SAMPLE.timestamp),
      Timestamp: SAMPLE.timestamp,
    },
  };
}

function pushBody(config: SimulatorConfig) {
  const common = credentials(config);
  return z
    .object({
      ...common.schema,
      TransactionType: z
        .enum(['CustomerPayBillOnline', 'CustomerBuyGoodsOnline'])
        .describe('Spaces around it are trimmed, as Daraja does; refused with SIM_STRICT_LENGTHS'),
      Amount: numeric('Whole shillings, 1 to 250,000'),
      PartyA: numeric('The paying number, 2547XXXXXXXX or 2541XXXXXXXX'),
      PartyB: numeric('The receiving shortcode or till'),
      PhoneNumber: numeric('The number that gets the prompt, 2547XXXXXXXX or 2541XXXXXXXX'),
      CallBackURL: z.string().describe('An http or https URL, no spaces'),
      AccountReference: z
        .string()
        .describe('Shown on the prompt; at most 12 characters with SIM_STRICT_LENGTHS'),
      TransactionDesc: z
        .string()
        .optional()
        .describe('At most 13 characters with SIM_STRICT_LENGTHS; if present, text ("Remarks")'),
    })
    .meta({
      'x-examples': {
        push: {
          summary: `A push of 1 KES to 254708374149 (Timestamp and Password for shortcode ${config.shortcode})`,
          value: {
            ...common.example,
            TransactionType: 'CustomerPayBillOnline',
            Amount: 1,
            PartyA: '254708374149',
            PartyB: config.shortcode,
            PhoneNumber: '254708374149',
            CallBackURL: 'https://pay.example.com/api/mpesa/callback/3f1c9a0e',
            AccountReference: 'INV-1042',
            TransactionDesc: 'Order 1042',
          },
        },
      },
    });
}

const pushAccepted = z
  .object({
    MerchantRequestID: z.string(),
    CheckoutRequestID: z.string(),
    ResponseCode: z.literal('0'),
    ResponseDescription: z.string(),
    CustomerMessage: z.string(),
  })
  .meta({
    description: 'Accepted: the prompt is on the phone.',
    'x-examples': {
      accepted: {
        summary: 'Accepted',
        value: {
          MerchantRequestID: SAMPLE.merchantRequestId,
          CheckoutRequestID: SAMPLE.checkoutRequestId,
          ResponseCode: '0',
          ResponseDescription: PUSH_ACCEPTED,
          CustomerMessage: PUSH_ACCEPTED,
        },
      },
    },
  });

function pushDocs(config: SimulatorConfig): RouteDocs {
  return {
    summary: 'Send an STK push: a payment prompt to the payer’s phone',
    description:
      'Each field is checked as Daraja checks it, and the first one wrong is named. The payer’s ' +
      'number decides what happens next (`GET /_sim/info` lists the numbers); the result reaches ' +
      'CallBackURL as Daraja’s callback.\n\n' +
      METHOD_NOT_ALLOWED('POST'),
    tags: DARAJA_TAGS,
    headers: bearer,
    body: pushBody(config),
    response: {
      200: pushAccepted,
      ...refusals({
        invalidField: {
          summary: 'A field missing or not valid: the first one, named as Daraja names it',
          failure: invalidField('PhoneNumber'),
        },
        invalidPayload: CALL_REFUSALS.invalidPayload,
        invalidToken: CALL_REFUSALS.invalidToken,
        invalidAuthHeader: CALL_REFUSALS.invalidAuthHeader,
        wrongCredentials: CALL_REFUSALS.wrongCredentials,
        merchantMissing: CALL_REFUSALS.merchantMissing,
        subscriberLocked: {
          summary: 'A prompt is already open on this phone',
          failure: ERRORS.subscriberLocked,
        },
        systemBusy: {
          summary: 'Forced for 254700000503, or by `PUT /_sim/numbers/{phone}/next` (busy)',
          failure: ERRORS.systemBusy,
        },
        spikeArrest: { summary: 'Forced (spike-arrest)', failure: ERRORS.spikeArrest },
        quota: { summary: 'Forced (quota)', failure: ERRORS.quota },
        internal: { summary: 'Forced (internal-error)', failure: ERRORS.internal },
      }),
    },
  };
}

const queryResult = z
  .object({
    ResponseCode: z.literal('0'),
    ResponseDescription: z.string(),
    MerchantRequestID: z.string(),
    CheckoutRequestID: z.string(),
    ResultCode: z.string(),
    ResultDesc: z.string(),
  })
  .meta({
    description: 'The prompt has ended: its result.',
    'x-examples': Object.fromEntries(
      [
        ['paid', 'Paid', '0'],
        ['cancelled', 'Cancelled by the payer', '1032'],
        ['unreachable', 'The phone could not be reached', '1037'],
      ].map(([name, summary, code]) => [
        name,
        {
          summary,
          value: {
            ResponseCode: '0',
            ResponseDescription: QUERY_ACCEPTED,
            MerchantRequestID: SAMPLE.merchantRequestId,
            CheckoutRequestID: SAMPLE.checkoutRequestId,
            ResultCode: code,
            ResultDesc: RESULT_CODES[code as string],
          },
        },
      ]),
    ),
  });

function queryDocs(config: SimulatorConfig): RouteDocs {
  const common = credentials(config);
  return {
    summary: 'Ask for an STK push’s result (STK query)',
    description:
      'While the prompt is open the answer is Daraja’s "still processing" refusal, whose ' +
      '`requestId` is the CheckoutRequestID; once it has ended, the result, with `ResultCode` ' +
      'as a string.\n\n' +
      METHOD_NOT_ALLOWED('POST'),
    tags: DARAJA_TAGS,
    headers: bearer,
    body: z.object({ ...common.schema, CheckoutRequestID: z.string() }).meta({
      'x-examples': {
        query: {
          summary: 'The result of a push',
          value: { ...common.example, CheckoutRequestID: SAMPLE.checkoutRequestId },
        },
      },
    }),
    response: {
      200: queryResult,
      ...refusals({
        invalidField: {
          summary: 'A CheckoutRequestID the simulator never gave (or a field not valid)',
          failure: invalidField('CheckoutRequestID'),
        },
        invalidPayload: CALL_REFUSALS.invalidPayload,
        invalidToken: CALL_REFUSALS.invalidToken,
        invalidAuthHeader: CALL_REFUSALS.invalidAuthHeader,
        stillProcessing: {
          summary: 'The prompt is still open',
          failure: ERRORS.stillProcessing,
          requestId: SAMPLE.checkoutRequestId,
        },
        wrongCredentials: CALL_REFUSALS.wrongCredentials,
        merchantMissing: CALL_REFUSALS.merchantMissing,
      }),
    },
  };
}

export function stkDocs(config: SimulatorConfig): Record<string, RouteDocs> {
  return {
    'POST /mpesa/stkpush/v1/processrequest': pushDocs(config),
    'POST /mpesa/stkpushquery/v1/query': queryDocs(config),
  };
}
