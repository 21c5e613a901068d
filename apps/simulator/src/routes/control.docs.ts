/**
 * The control API (/_sim/) as the simulator's description shows it: what each route does, and an
 * example of each answer. The routes' own zod schemas (params, query, body) describe the requests;
 * the answers are described here only, and shape nothing: the control API has no answer schemas.
 */
import { z } from 'zod';
import { RESULT_CODES } from '../catalogue.ts';
import type { SimulatorConfig } from '../config.ts';
import { LATE_CALLBACK_MS } from '../faults.ts';
import type { RouteDocs } from '../openapi.ts';
import type { Prompt } from '../prompts.ts';
import { REMOTE_REFUSED } from '../remote-access.ts';
import { simulatorInfo } from './control.routes.ts';

const TAGS: [string] = ['Control (/_sim/)'];

const refusal = z.object({ error: z.string() });

/** An error answer of the control API: `{ "error": "…" }`, by status, with its examples. */
function errors(
  named: Record<number, Record<string, { summary: string; error: string; extra?: object }>>,
): RouteDocs['response'] {
  const all: typeof named = {
    ...named,
    403: {
      remote: {
        summary: 'From another machine, unless SIM_REMOTE_CONTROL=true',
        error: REMOTE_REFUSED,
      },
    },
  };
  return Object.fromEntries(
    Object.entries(all).map(([status, examples]) => [
      status,
      refusal.loose().meta({
        description: 'Refused: `error` says why.',
        'x-examples': Object.fromEntries(
          Object.entries(examples).map(([name, { summary, error, extra }]) => [
            name,
            { summary, value: { error, ...extra } },
          ]),
        ),
      }),
    ]),
  );
}

const NO_SUCH_PROMPT = { notFound: { summary: 'No prompt has this id', error: 'No such prompt' } };
/** A refused request, as the error handler words zod's first issue: where, and what. */
const invalid = (summary: string, error: string) => ({ invalid: { summary, error } });
const badPhone = (where: 'params' | 'querystring') =>
  invalid('Not a Kenyan mobile number', `${where}/phone phone must be a Kenyan mobile number`);
/** An answer with no body (@fastify/swagger gives a `null` schema no content). */
const NO_CONTENT = { 204: z.null().meta({ description: 'Done (no body).' }) };

const PROMPT: Prompt = {
  checkoutRequestId: 'ws_CO_14032026122653412712345678',
  merchantRequestId: '2654-4b64-97ff-b827b542881d3130',
  businessShortCode: '174379',
  transactionType: 'CustomerPayBillOnline',
  amount: 450,
  partyA: '254712345678',
  partyB: '174379',
  phoneNumber: '254712345678',
  callbackUrl: 'https://pay.example.com/api/mpesa/callback/3f1c…',
  accountReference: 'INV-1042',
  transactionDesc: 'Order 1042',
  createdAt: '2026-03-14T09:26:53.412Z',
  expiresAt: '2026-03-14T09:27:53.412Z',
  plan: 'manual',
  forcedResult: null,
  state: 'completed',
  resultCode: '0',
  resultDesc: RESULT_CODES['0'] ?? null,
  receiptNumber: 'UCE7RT61SV',
  completedAt: '2026-03-14T09:27:04.118Z',
  completedBy: 'pin',
  callback: 'delivered',
  fault: {},
};
const OPEN_PROMPT: Prompt = {
  ...PROMPT,
  state: 'open',
  resultCode: null,
  resultDesc: null,
  receiptNumber: null,
  completedAt: null,
  completedBy: null,
  callback: 'waiting',
};

const FAULTS = {
  seed: 7,
  rules: [
    { operation: 'stkpush', probability: 0.2, error: 'spike-arrest', latencyMs: [100, 300] },
    { operation: 'callback', probability: 0.1, error: 'late' },
  ],
};
const CLOCK = { now: '2026-03-14T09:27:53.412Z', aheadMs: 61_000 };

/** An answer's schema for the description: any object, with its examples. */
const shown = (
  description: string,
  examples: Record<string, { summary: string; value: unknown }>,
) => z.looseObject({}).meta({ description, 'x-examples': examples });

/** A prompt ended by a route: the ended prompt, or why it could not be. */
function endsPrompt(
  summary: string,
  description: string,
  refused: Record<number, Record<string, { summary: string; error: string }>> = {},
): RouteDocs {
  return {
    summary,
    description,
    tags: TAGS,
    response: {
      200: shown('The prompt, ended (its callback is on its way).', {
        ended: { summary: 'Ended', value: PROMPT },
      }),
      ...errors({
        ...refused,
        404: NO_SUCH_PROMPT,
        409: {
          ended: {
            summary: 'The prompt had already ended',
            error: 'The prompt has already ended',
            extra: { prompt: PROMPT },
          },
        },
      }),
    },
  };
}

export function controlDocs(config: SimulatorConfig): Record<string, RouteDocs> {
  return {
    'GET /_sim/info': {
      summary: 'The simulator’s settings, the numbers that force an outcome, and the result codes',
      tags: TAGS,
      response: {
        200: shown('The settings.', {
          info: {
            summary: 'This simulator',
            value: simulatorInfo(config, { faultRules: 0, clockAheadMs: 0 }),
          },
        }),
        ...errors({}),
      },
    },
    'POST /_sim/reset': {
      summary: 'Forget every prompt, choice, fault rule and log entry',
      description:
        'Issued tokens stay valid, and the clock is not moved back (time only goes forward).',
      tags: TAGS,
      response: { ...NO_CONTENT, ...errors({}) },
    },
    'GET /_sim/faults': {
      summary: 'The fault rules, with the seed they draw from',
      tags: TAGS,
      response: {
        200: shown('The rules, in the order they are drawn.', {
          faults: { summary: 'One rule', value: FAULTS },
          none: { summary: 'No rules', value: { seed: 0, rules: [] } },
        }),
        ...errors({}),
      },
    },
    'PUT /_sim/faults': {
      summary: 'Set the fault rules: Daraja’s errors and added latency, at a rate',
      description:
        'Each rule names an `operation` (`oauth`, `stkpush`, `query` or `callback`), the ' +
        '`probability` (more than 0, at most 1) that it applies to a request or a callback, and an ' +
        '`error`, a `latencyMs` range `[lowest, highest]` (`[n, n]` for a fixed one), or both. ' +
        'Errors for `oauth`, `stkpush` and `query`: `busy`, `spike-arrest`, `quota` and ' +
        '`internal-error` answer as Daraja does (`500.003.02`, `500.003.03`, `500.003.1001`); ' +
        '`drop` closes the connection with no answer; `gateway` answers a 502 HTML page, as a ' +
        'proxy in front of Daraja does. They are drawn before the request is looked at: a faulted ' +
        'push prompts no phone. Errors for `callback`: `drop` (never delivered), `duplicate` ' +
        `(delivered twice), \`late\` (delivered ${LATE_CALLBACK_MS / 1000} s later, or by its ` +
        '`latencyMs`); a callback’s latency is on the simulator’s clock. A number’s own fault ' +
        '(`PUT /_sim/numbers/:phone/next`) applies as well. The first error that applies wins; ' +
        'latencies add up. The same `seed` and the same traffic give the same faults; without one, ' +
        'one is chosen and shown. Replaces the rules there were.',
      tags: TAGS,
      response: {
        200: shown('The rules, with their seed.', {
          faults: {
            summary: 'A fifth of pushes refused after a wait, a tenth of callbacks late',
            value: FAULTS,
          },
        }),
        ...errors({
          400: {
            ...invalid(
              'A probability of 0',
              'body/rules/0/probability must be more than 0 (a rule that never applies is no rule)',
            ),
            wrongError: {
              summary: 'An error the operation does not have',
              error:
                'body/rules/0/error "late" is not an error for stkpush (one of busy, spike-arrest, quota, internal-error, drop, gateway)',
            },
          },
        }),
      },
    },
    'DELETE /_sim/faults': {
      summary: 'Forget the fault rules',
      tags: TAGS,
      response: { ...NO_CONTENT, ...errors({}) },
    },
    'GET /_sim/clock': {
      summary: 'The simulator’s time, and how far it is ahead of the real clock',
      tags: TAGS,
      response: {
        200: shown('The time.', {
          clock: { summary: 'Moved a minute ahead', value: CLOCK },
        }),
        ...errors({}),
      },
    },
    'POST /_sim/clock/advance': {
      summary: 'Move the simulator’s clock forward',
      description:
        'Everything due within the move happens at once, in order: prompts time out (1037), ' +
        'forced outcomes and auto-approvals end them, delayed callbacks are sent (they are on ' +
        'their way when this answers), and tokens expire. `seconds` is more than 0 and at most ' +
        '2592000 (30 days). `fired` counts the waits that came due.',
      tags: TAGS,
      response: {
        200: shown('The new time.', {
          advanced: { summary: 'A prompt’s 60 s timeout, at once', value: { ...CLOCK, fired: 1 } },
        }),
        ...errors({
          400: invalid(
            'Not forward',
            'body/seconds must be more than 0 (the clock only goes forward)',
          ),
        }),
      },
    },
    'GET /_sim/prompts': {
      summary: 'Prompts, newest first',
      tags: TAGS,
      response: {
        200: shown('The prompts, their callback URLs’ secrets masked.', {
          prompts: { summary: 'One open prompt', value: { prompts: [OPEN_PROMPT] } },
        }),
        ...errors({ 400: badPhone('querystring') }),
      },
    },
    'GET /_sim/prompts/:id': {
      summary: 'One prompt, by its CheckoutRequestID',
      tags: TAGS,
      response: {
        200: shown('The prompt.', { prompt: { summary: 'A paid prompt', value: PROMPT } }),
        ...errors({ 404: NO_SUCH_PROMPT }),
      },
    },
    'POST /_sim/prompts/:id/pin': endsPrompt(
      'Answer the prompt with a PIN',
      `The right PIN (SIM_PIN) pays; another ends the prompt with 2001 ("${RESULT_CODES['2001']}").`,
      {
        400: invalid(
          'The PIN is not text',
          'body/pin Invalid input: expected string, received number',
        ),
      },
    ),
    'POST /_sim/prompts/:id/cancel': endsPrompt(
      'The payer cancels the prompt (1032)',
      'Ends it with 1032.',
    ),
    'POST /_sim/prompts/:id/timeout': endsPrompt(
      'The prompt times out (1037)',
      'Ends it with 1037, as a phone that cannot be reached does.',
    ),
    'POST /_sim/prompts/:id/result': endsPrompt(
      'End the prompt with any result code of Daraja’s catalogue',
      'A success (0) gets a receipt; any other code ends it unpaid.',
      {
        400: invalid(
          'A result code not in the catalogue',
          `body/resultCode resultCode must be one of ${Object.keys(RESULT_CODES).join(', ')}`,
        ),
      },
    ),
    'PUT /_sim/numbers/:phone/next': {
      summary: 'Choose what the next push to a number does',
      description:
        '`outcome` is a result code, `auto`, `manual`, `paid-no-callback`, or a refusal at once: ' +
        '`busy`, `spike-arrest`, `quota` or `internal-error`. `fault` changes how the callback is ' +
        'delivered: `duplicates`, `delayMs`, `drop`, `retries`, `retryIntervalMs`.',
      tags: TAGS,
      response: {
        200: shown('The choice, kept for the next push to the number.', {
          next: {
            summary: 'The next push is cancelled by the payer, and its callback sent twice',
            value: {
              phoneNumber: '254712345678',
              next: { outcome: '1032', fault: { duplicates: 1 } },
            },
          },
        }),
        ...errors({ 400: badPhone('params') }),
      },
    },
    'DELETE /_sim/numbers/:phone/next': {
      summary: 'Forget the choice for a number',
      tags: TAGS,
      response: { ...NO_CONTENT, ...errors({ 400: badPhone('params') }) },
    },
    'GET /_sim/log': {
      summary: 'The request log: each request with its answer, each callback with its receiver’s',
      tags: TAGS,
      response: {
        200: shown('The entries, newest first, their secrets masked.', {
          log: {
            summary: 'A push and its callback',
            value: {
              entries: [
                {
                  id: 2,
                  at: '2026-03-14T09:27:04.140Z',
                  kind: 'callback',
                  checkoutRequestId: PROMPT.checkoutRequestId,
                  url: PROMPT.callbackUrl,
                  attempt: 1,
                  requestBody: { Body: { stkCallback: { ResultCode: 0 } } },
                  status: 200,
                  responseBody: '{"ResultCode":0,"ResultDesc":"Accepted"}',
                  error: null,
                  durationMs: 12,
                },
                {
                  id: 1,
                  at: '2026-03-14T09:26:53.420Z',
                  kind: 'request',
                  method: 'POST',
                  path: '/mpesa/stkpush/v1/processrequest',
                  authorization: 'Bear…',
                  requestBody: { BusinessShortCode: '174379', Password: 'MTc0…' },
                  status: 200,
                  responseBody: { ResponseCode: '0' },
                  durationMs: 3,
                },
              ],
            },
          },
        }),
        ...errors({
          400: invalid(
            'More than 500 entries',
            'querystring/limit Too big: expected number to be <=500',
          ),
        }),
      },
    },
    'POST /_sim/tokens/expire': {
      summary: 'Make every issued access token invalid',
      tags: TAGS,
      response: { ...NO_CONTENT, ...errors({}) },
    },
    'GET /_sim/events': {
      summary: 'Server-sent events: prompts and log entries as they happen',
      description:
        'A `hello` event with the prompts and the log so far, then `prompt`, `log` and `reset` ' +
        'events. `watch=1` tells the simulator that a person is looking at the phone (`phone`, or ' +
        'every phone): auto-approval waits while they are.',
      tags: TAGS,
      response: {
        200: {
          description: 'An event stream.',
          content: {
            'text/event-stream': {
              schema: z.string().meta({
                examples: [
                  `event: hello\ndata: ${JSON.stringify({ prompts: [OPEN_PROMPT], log: [] })}\n\n` +
                    `event: prompt\ndata: ${JSON.stringify({ type: 'prompt', prompt: PROMPT })}\n\n`,
                ],
              }),
            },
          },
        },
        ...errors({ 400: badPhone('querystring') }),
      },
    },
  };
}
