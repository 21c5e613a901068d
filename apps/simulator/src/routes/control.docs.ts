/**
 * The control API's own routes (/_sim/: settings, reset, fault rules, clock, log, tokens, events)
 * as the simulator's description shows them: what each route does, and an example of each answer.
 * The routes' own zod schemas (params, query, body) describe the requests. Each Daraja API's
 * control routes are described in its folder (operations/).
 */
import { z } from 'zod';
import type { SimulatorConfig } from '../config.ts';
import { LATE_CALLBACK_MS } from '../faults.ts';
import { OPEN_PROMPT, PROMPT } from '../operations/stk/examples.ts';
import type { RouteDocs } from '../route-docs.ts';
import { simulatorInfo } from './control.routes.ts';
import { CONTROL_TAGS as TAGS, NO_CONTENT, badPhone, errors, invalid, shown } from './docs-kit.ts';

const FAULTS = {
  seed: 7,
  rules: [
    { operation: 'stkpush', probability: 0.2, error: 'spike-arrest', latencyMs: [100, 300] },
    { operation: 'callback', probability: 0.1, error: 'late' },
  ],
};
const CLOCK = { now: '2026-03-14T09:27:53.412Z', aheadMs: 61_000 };

const PUT_FAULTS =
  'Each rule names an `operation` (`oauth`, `stkpush`, `query` or `callback`), the ' +
  '`probability` (more than 0, at most 1) that it applies to a request or a callback, and an ' +
  '`error`, a `latencyMs` range `[lowest, highest]` (`[n, n]` for a fixed one), or both. ' +
  'Errors for `oauth`, `stkpush` and `query`: `busy`, `spike-arrest`, `quota` and ' +
  '`internal-error` answer as Daraja does (`500.003.02`, `500.003.03`, `500.003.1001`); ' +
  '`drop` closes the connection with no answer; `lose-answer` carries the request out, then ' +
  'closes the connection instead of answering (the acknowledgement lost on its way back); ' +
  '`gateway` answers a 502 HTML page, as a proxy in front of Daraja does. They are drawn ' +
  'before the request is looked at: a push faulted but by `lose-answer` prompts no phone. ' +
  'Errors for `callback`: `drop` (never delivered), `duplicate` ' +
  `(delivered twice), \`late\` (delivered ${LATE_CALLBACK_MS / 1000} s later, or by its ` +
  '`latencyMs`); a callback’s latency is on the simulator’s clock. A number’s own fault ' +
  '(`PUT /_sim/numbers/:phone/next`) applies as well. The first error that applies wins; ' +
  'latencies add up. The same `seed` and the same traffic give the same faults; without one, ' +
  'one is chosen and shown. Replaces the rules there were.';

const faultDocs: Record<string, RouteDocs> = {
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
    description: PUT_FAULTS,
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
              'body/rules/0/error "late" is not an error for stkpush (one of busy, spike-arrest, quota, internal-error, drop, lose-answer, gateway)',
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
};

const clockDocs: Record<string, RouteDocs> = {
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
};

const LOG_EXAMPLE = {
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
};

const logDocs: Record<string, RouteDocs> = {
  'GET /_sim/log': {
    summary: 'The request log: each request with its answer, each callback with its receiver’s',
    description:
      'A callback entry is named by the ids its receiver matches it on: an STK callback by its ' +
      '`checkoutRequestId`, a Result by its `conversationId` and `originatorConversationId`.',
    tags: TAGS,
    response: {
      200: shown('The entries, newest first, their secrets masked.', {
        log: { summary: 'A push and its callback', value: LOG_EXAMPLE },
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
      'A `hello` event with the prompts and the log so far, then `prompt`, `transaction` (money ' +
      'moved, as GET /_sim/ledger shows it), `log` and `reset` events. `watch=1` tells the ' +
      'simulator that a person is looking at the phone (`phone`, or every phone): auto-approval ' +
      'waits while they are.',
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

function settingsDocs(config: SimulatorConfig): Record<string, RouteDocs> {
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
  };
}

export function controlDocs(config: SimulatorConfig): Record<string, RouteDocs> {
  return { ...settingsDocs(config), ...faultDocs, ...clockDocs, ...logDocs };
}
