/**
 * C2B as the simulator's description shows it (docs/daraja-protocol.md §M3): its Daraja routes and
 * its control routes. For the description only (daraja/docs.ts says why).
 */
import { z } from 'zod';
import { invalidField } from '../../catalogue.ts';
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
import { CONTROL_TAGS, NO_CONTENT, errors, invalid, shown } from '../../routes/docs-kit.ts';
import { AMOUNT_RULE, SHORTCODE_RULE, TIMEOUT_RULE, WRONG_PIN } from './c2b.control.ts';
import {
  ALREADY_REGISTERED,
  REGISTERED,
  SIMULATED,
  registerPath,
  simulatePath,
} from './c2b.routes.ts';
import { MAX_BILL_REF, forbiddenWord } from './validation.ts';

const registerBody = z
  .object({
    ShortCode: numeric('The paybill or till, 5 to 7 digits'),
    ResponseType: z
      .enum(['Completed', 'Cancelled'])
      .describe('What happens when the validation URL does not answer in time'),
    ConfirmationURL: z.string().describe('Where the confirmation of each payment goes'),
    ValidationURL: z.string().describe('Where the validation request goes, when turned on'),
  })
  .meta({
    'x-examples': {
      register: {
        summary: 'Register a paybill’s URLs',
        value: {
          ShortCode: '600984',
          ResponseType: 'Completed',
          ConfirmationURL: 'https://mydomain.com/confirmation',
          ValidationURL: 'https://mydomain.com/validation',
        },
      },
    },
  });

const simulateBody = z
  .object({
    ShortCode: numeric('The paybill or till paid'),
    CommandID: z.enum(['CustomerPayBillOnline', 'CustomerBuyGoodsOnline']),
    Amount: numeric('Whole shillings, 1 to 250,000'),
    Msisdn: numeric('The payer, 2547XXXXXXXX or 2541XXXXXXXX'),
    BillRefNumber: z
      .string()
      .nullable()
      .optional()
      .describe(`The paybill account, at most ${MAX_BILL_REF} characters; null for a till`),
  })
  .meta({
    'x-examples': {
      paybill: {
        summary: 'Pay 1 KES to paybill 600984, account Test Ref',
        value: {
          ShortCode: 600984,
          CommandID: 'CustomerPayBillOnline',
          Amount: 1,
          Msisdn: 254708374149,
          BillRefNumber: 'Test Ref',
        },
      },
    },
  });

const accepted = (description: string, text: string) =>
  z
    .object({
      OriginatorCoversationID: z.string().describe('Spelled so, without the "n", as Daraja does'),
      ResponseCode: z.literal('0'),
      ResponseDescription: z.literal(text),
    })
    .meta({
      description,
      'x-examples': {
        accepted: {
          summary: 'Accepted',
          value: {
            OriginatorCoversationID: SAMPLE.requestId,
            ResponseCode: '0',
            ResponseDescription: text,
          },
        },
      },
    });

const callRefusals = {
  invalidPayload: CALL_REFUSALS.invalidPayload,
  invalidToken: CALL_REFUSALS.invalidToken,
  invalidAuthHeader: CALL_REFUSALS.invalidAuthHeader,
};

function registerDocs(version: string): RouteDocs {
  return {
    summary: `Register a shortcode’s validation and confirmation URLs (${version})`,
    description:
      `The version registered through decides the payer’s number in the notifications: v1 its ` +
      'SHA-256 (lower-case hex), v2 masked (`2547 ***** 126`). Registering again overwrites, as ' +
      'the sandbox does; with SIM_C2B_PRODUCTION_URLS it is refused, and HTTP URLs too. A URL ' +
      'with M-PESA, MPESA, Safaricom, exe, exec, cmd, SQL or query anywhere in it, any case, is ' +
      'refused. The validation URL is only called once external validation is turned on (PUT ' +
      '/_sim/c2b/shortcodes/:shortcode).\n\n' +
      METHOD_NOT_ALLOWED('POST'),
    tags: DARAJA_TAGS,
    headers: bearer,
    body: registerBody,
    response: {
      200: accepted('Registered.', REGISTERED),
      ...refusals({
        invalidField: {
          summary: 'A field missing or wrong: a ResponseType not exactly Completed or Cancelled',
          failure: invalidField('ResponseType'),
        },
        forbiddenWord: {
          summary: 'A URL with a forbidden word',
          failure: forbiddenWord('ValidationURL', 'MPESA'),
        },
        alreadyRegistered: {
          summary: 'Registered already, with SIM_C2B_PRODUCTION_URLS',
          failure: ALREADY_REGISTERED,
        },
        ...callRefusals,
      }),
    },
  };
}

function simulateDocs(version: string): RouteDocs {
  return {
    summary: `A customer pays a paybill or till from the phone’s menu (${version})`,
    description:
      'Answered at once. Then, for a shortcode with URLs registered: the validation request ' +
      '(when turned on), its answer or the ResponseType, and the confirmation once the money ' +
      'moved from the wallet to the shortcode. A shortcode with no URLs is paid with nothing ' +
      'sent; a wallet that cannot pay, nothing at all. GET /_sim/c2b shows each payment.\n\n' +
      METHOD_NOT_ALLOWED('POST'),
    tags: DARAJA_TAGS,
    headers: bearer,
    body: simulateBody,
    response: {
      200: accepted('Accepted: the payment goes on.', SIMULATED),
      ...refusals({
        invalidField: {
          summary:
            'A field missing or wrong (a CommandID not in the list, a BillRefNumber too long)',
          failure: invalidField('CommandID'),
        },
        ...callRefusals,
      }),
    },
  };
}

export function c2bDocs(): Record<string, RouteDocs> {
  return Object.fromEntries(
    ['v1', 'v2'].flatMap((version) => [
      [`POST ${registerPath(version)}`, registerDocs(version)],
      [`POST ${simulatePath(version)}`, simulateDocs(version)],
    ]),
  );
}

const PAYMENT = {
  transId: 'UKR1AB2CD3',
  shortcode: '600984',
  commandId: 'CustomerPayBillOnline',
  amount: 100,
  msisdn: '254708374149',
  billRefNumber: 'Test Ref',
  stage: 'completed',
  validation: { state: 'delivered', resultCode: '0', decidedBy: 'merchant' },
  confirmation: 'delivered',
  orgAccountBalance: '1000001.00',
};

const SHORTCODE = {
  shortcode: '600984',
  registration: null,
  externalValidation: true,
  validationTimeoutMs: null,
};

export function c2bControlDocs(): Record<string, RouteDocs> {
  const badShortcode = invalid('Not a shortcode', `params/shortcode ${SHORTCODE_RULE}`);
  return {
    'GET /_sim/c2b': {
      summary: 'C2B’s shortcodes (URLs, validation) and its newest payments',
      description: 'Amounts in cents; `stage` says where a payment stands.',
      tags: CONTROL_TAGS,
      response: {
        200: shown('Shortcodes and payments.', {
          one: { summary: 'One paid', value: { shortcodes: [SHORTCODE], payments: [PAYMENT] } },
        }),
        ...errors({}),
      },
    },
    'GET /_sim/c2b/payments/:transId': {
      summary: 'One C2B payment, by its TransID',
      tags: CONTROL_TAGS,
      response: {
        200: shown('The payment.', { paid: { summary: 'Paid', value: PAYMENT } }),
        ...errors({ 404: { unknown: { summary: 'Unknown', error: 'No such payment' } } }),
      },
    },
    'PUT /_sim/c2b/shortcodes/:shortcode': {
      summary: 'Turn external validation on or off; set the wait for its answer',
      description:
        '`externalValidation` (off unless turned on, as Safaricom turns it on by email); ' +
        '`validationTimeoutMs`, how long to wait for the merchant’s answer before ResponseType ' +
        'decides (null: SIM_C2B_VALIDATION_TIMEOUT_MS).',
      tags: CONTROL_TAGS,
      response: {
        200: shown('The shortcode.', { on: { summary: 'Validation on', value: SHORTCODE } }),
        ...errors({
          400: {
            ...badShortcode,
            timeout: { summary: 'Too long', error: `body/validationTimeoutMs ${TIMEOUT_RULE}` },
          },
        }),
      },
    },
    'DELETE /_sim/c2b/shortcodes/:shortcode/urls': {
      summary: 'Forget a shortcode’s URLs, as deleting them in Safaricom’s portal does',
      tags: CONTROL_TAGS,
      response: {
        ...NO_CONTENT,
        ...errors({
          400: badShortcode,
          404: { unknown: { summary: 'Unknown', error: 'No such shortcode' } },
        }),
      },
    },
    'POST /_sim/c2b/pay': {
      summary: 'Pay a paybill (with `account`) or a till (without) from a phone’s menu',
      description:
        '`{msisdn, shortcode, account?, amount, pin}`, the PIN SIM_PIN: the same path as ' +
        'simulate (validation, confirmation, ledger). Answers the payment as it stands.',
      tags: CONTROL_TAGS,
      response: {
        200: shown('The payment.', { paid: { summary: 'Paying', value: PAYMENT } }),
        ...errors({
          400: {
            ...invalid('Amount', `body/amount ${AMOUNT_RULE}`),
            pin: { summary: 'A wrong PIN', error: WRONG_PIN },
          },
        }),
      },
    },
  };
}
