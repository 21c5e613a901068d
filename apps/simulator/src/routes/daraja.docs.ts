/**
 * Daraja's routes as the simulator's description shows them (PROTOCOL.md §2, §3, §5): request and
 * answer shapes, and an example of each answer made from the same catalogue the routes answer
 * from (catalogue.ts). For the description only: these routes check their requests by hand, so
 * that every refusal is Daraja's own (`400.002.02 Bad Request - Invalid PhoneNumber`), never a
 * schema validator's; nothing here validates a request or shapes an answer.
 */
import { z } from 'zod';
import { ERRORS, PUSH_ACCEPTED, QUERY_ACCEPTED, RESULT_CODES, invalidField } from '../catalogue.ts';
import type { SimulatorConfig } from '../config.ts';
import { stkPassword } from '../password.ts';
import type { RouteDocs } from '../openapi.ts';

/** Daraja's synchronous error envelope (PROTOCOL.md §3.5). */
const envelope = z.object({
  requestId: z.string(),
  errorCode: z.string(),
  errorMessage: z.string(),
});

type Failure = readonly [number, string, string];

/** Example identifiers in Daraja's formats (PROTOCOL.md §3.4). */
const SAMPLE = {
  requestId: '2ba8-4165-beca-292db11f9ef8358609',
  merchantRequestId: '2654-4b64-97ff-b827b542881d3130',
  checkoutRequestId: 'ws_CO_14032026122653412712345678',
  timestamp: '20260314122653',
  token: 'c9SQxWWhmdVRlyh0zh8gZDTkubVF',
};

/** The refusals of one route by status, each an example of the envelope. */
function refusals(
  named: Record<string, { summary: string; failure: Failure; requestId?: string }>,
): RouteDocs['response'] {
  const byStatus: Record<number, Record<string, { summary: string; value: unknown }>> = {};
  for (const [name, { summary, failure, requestId }] of Object.entries(named)) {
    const [status, errorCode, errorMessage] = failure;
    byStatus[status] = {
      ...byStatus[status],
      [name]: {
        summary,
        value: { requestId: requestId ?? SAMPLE.requestId, errorCode, errorMessage },
      },
    };
  }
  return Object.fromEntries(
    Object.entries(byStatus).map(([status, examples]) => [
      status,
      envelope.meta({
        description: `Refused, in Daraja's envelope: ${[...new Set(Object.values(examples).map((example) => `\`${(example.value as { errorCode: string }).errorCode}\``))].join(', ')}.`,
        'x-examples': examples,
      }),
    ]),
  );
}

const bearer = z.object({
  authorization: z.string().describe('`Bearer <access_token>`, a token from `/oauth/v1/generate`'),
});

/** Numeric fields: Daraja takes a number or a string of digits. */
const numeric = (description: string) => z.union([z.string(), z.number()]).describe(description);

const METHOD_NOT_ALLOWED = (allowed: string) =>
  `Any other method than ${allowed} is refused with 405 \`405.001\` ("PUT Method Not Allowed"); an unknown path with 404 \`404.001.01\` "Resource not found".`;

/** Refusals every M-PESA API call can get before its body is read. */
const CALL_REFUSALS = {
  invalidPayload: { summary: 'The body is not a JSON object', failure: ERRORS.invalidPayload },
  invalidToken: {
    summary: 'No token, or one that has expired or was never issued',
    failure: ERRORS.invalidToken,
  },
  invalidAuthHeader: {
    summary: 'An Authorization header that is not `Bearer …`',
    failure: ERRORS.invalidAuthHeader,
  },
  wrongCredentials: {
    summary: 'Password is not base64(BusinessShortCode + passkey + Timestamp)',
    failure: ERRORS.wrongCredentials,
  },
  merchantMissing: {
    summary: 'A BusinessShortCode the simulator does not know',
    failure: ERRORS.merchantMissing,
  },
};

export function darajaDocs(config: SimulatorConfig): Record<string, RouteDocs> {
  const credentials = {
    BusinessShortCode: config.shortcode,
    Password: stkPassword(config.shortcode, config.passkey, SAMPLE.timestamp),
    Timestamp: SAMPLE.timestamp,
  };
  const common = {
    BusinessShortCode: numeric('The shortcode (SIM_SHORTCODE)'),
    Password: z.string().describe('base64(BusinessShortCode + passkey + Timestamp)'),
    Timestamp: z.string().describe('YYYYMMDDHHmmss, Nairobi time: the one in the Password'),
  };
  return {
    'GET /oauth/v1/generate': {
      summary: 'An access token (OAuth client credentials)',
      description:
        'Any non-empty consumer key and secret are accepted, unless SIM_CONSUMER_KEY and SIM_CONSUMER_SECRET pin one pair. ' +
        `Tokens last SIM_TOKEN_TTL_S (${config.tokenTtlS} s); \`expires_in\` is a string, as in Daraja's answers.\n\n` +
        METHOD_NOT_ALLOWED('GET'),
      tags: ['Daraja'],
      querystring: z.object({ grant_type: z.literal('client_credentials') }),
      headers: z.object({
        authorization: z.string().describe('`Basic base64(consumerKey:consumerSecret)`'),
      }),
      response: {
        200: z.object({ access_token: z.string(), expires_in: z.string() }).meta({
          description: 'A token for the M-PESA calls.',
          'x-examples': {
            token: {
              summary: 'A token',
              value: { access_token: SAMPLE.token, expires_in: String(config.tokenTtlS - 1) },
            },
          },
        }),
        ...refusals({
          invalidGrant: {
            summary: 'grant_type is not client_credentials',
            failure: ERRORS.invalidGrant,
          },
          invalidAuthentication: {
            summary: 'No Basic credentials, or not the pinned pair',
            failure: ERRORS.invalidAuthentication,
          },
        }),
      },
    },
    'POST /mpesa/stkpush/v1/processrequest': {
      summary: 'Send an STK push: a payment prompt to the payer’s phone',
      description:
        'Each field is checked as Daraja checks it, and the first one wrong is named. The payer’s ' +
        'number decides what happens next (`GET /_sim/info` lists the numbers); the result reaches ' +
        'CallBackURL as Daraja’s callback.\n\n' +
        METHOD_NOT_ALLOWED('POST'),
      tags: ['Daraja'],
      headers: bearer,
      body: z
        .object({
          ...common,
          TransactionType: z.enum(['CustomerPayBillOnline', 'CustomerBuyGoodsOnline']),
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
            .describe(
              'At most 13 characters with SIM_STRICT_LENGTHS; if present, text ("Remarks")',
            ),
        })
        .meta({
          'x-examples': {
            push: {
              summary: `A push of 1 KES to 254708374149 (Timestamp and Password for shortcode ${config.shortcode})`,
              value: {
                ...credentials,
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
        }),
      response: {
        200: z
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
          }),
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
    },
    'POST /mpesa/stkpushquery/v1/query': {
      summary: 'Ask for an STK push’s result (STK query)',
      description:
        'While the prompt is open the answer is Daraja’s "still processing" refusal, whose ' +
        '`requestId` is the CheckoutRequestID; once it has ended, the result, with `ResultCode` ' +
        'as a string.\n\n' +
        METHOD_NOT_ALLOWED('POST'),
      tags: ['Daraja'],
      headers: bearer,
      body: z.object({ ...common, CheckoutRequestID: z.string() }).meta({
        'x-examples': {
          query: {
            summary: 'The result of a push',
            value: { ...credentials, CheckoutRequestID: SAMPLE.checkoutRequestId },
          },
        },
      }),
      response: {
        200: z
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
          }),
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
    },
  };
}
