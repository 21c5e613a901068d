/**
 * The development receiver's control routes as the simulator's description shows them
 * (webhooks.routes.ts). For the description only.
 */
import { z } from 'zod';
import type { RouteDocs } from '../../route-docs.ts';
import { CONTROL_TAGS, NO_CONTENT, errors, invalid, shown } from '../../routes/docs-kit.ts';
import { MAX_INBOX_BODY_BYTES, MAX_INBOX_ENTRIES, type InboxEntry } from './webhook-inbox.ts';
import { FAIL_RULE } from './webhooks.routes.ts';

const BODY = JSON.stringify({
  id: 'evt_0193a2f0c1d2000a3f9e7c1b',
  type: 'webhook.test',
  created: 1795770900,
  data: { payment: { _id: '0b9e4c1e-3c55-4a53-9d1c-6a1f0f2a7c11', amount: 1, status: 'success' } },
});

const ENTRY: InboxEntry = {
  id: 1,
  at: '2026-11-27T10:15:00.120Z',
  eventType: 'webhook.test',
  eventId: 'evt_0193a2f0c1d2000a3f9e7c1b',
  signature: 't=1795770900,v1=5f2b9c0e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c',
  eventIdHeader: 'evt_0193a2f0c1d2000a3f9e7c1b',
  contentType: 'application/json',
  body: BODY,
  attempt: 1,
  status: 200,
};

const tooLarge = {
  summary: `A body of more than ${MAX_INBOX_BODY_BYTES} bytes`,
  error: 'Request body is too large',
};

export function webhookControlDocs(): Record<string, RouteDocs> {
  return {
    'POST /_sim/webhooks/inbox': {
      summary: 'The development receiver: keep a webhook the shop’s API sent',
      description:
        'Point a webhook endpoint here in simulator mode to see what a shop’s own system would ' +
        `be sent. Takes any body of up to ${MAX_INBOX_BODY_BYTES} bytes, keeps it exactly as ` +
        'received with its `Mpesa-Signature` and `Mpesa-Event-Id` headers (the last ' +
        `${MAX_INBOX_ENTRIES}), and answers 200. \`?fail=n\` answers 500 to the first n ` +
        'attempts at each event (counted by its `Mpesa-Event-Id`), then 200: to watch the ' +
        'retries. It checks no signature: the shop’s receiver does (docs/webhooks.md).',
      tags: CONTROL_TAGS,
      body: z.string().meta({ description: 'Any body: kept as text, unparsed.' }),
      response: {
        200: shown('Kept.', { kept: { summary: 'Kept', value: { received: true, id: 1 } } }),
        413: z.looseObject({}).meta({
          description: 'Too large: nothing kept.',
          'x-examples': {
            tooLarge: { summary: tooLarge.summary, value: { error: tooLarge.error } },
          },
        }),
        500: shown('Failing on purpose, as `?fail=` asked: kept all the same.', {
          failing: {
            summary: 'The first of two failures asked for',
            value: { error: 'Failing on purpose (?fail=2): attempt 1' },
          },
        }),
        ...errors({ 400: invalid('Not a number of attempts', `querystring/fail ${FAIL_RULE}`) }),
      },
    },
    'GET /_sim/webhooks/inbox': {
      summary: 'The webhooks the development receiver kept, newest first',
      description:
        '`body` is the text received (the signature is over it), `eventType` and `eventId` ' +
        'come from it when it is an event’s JSON, `attempt` counts the attempts at that event ' +
        'and `status` is what the receiver answered.',
      tags: CONTROL_TAGS,
      response: {
        200: shown('The webhooks.', {
          one: { summary: 'A test event', value: { entries: [ENTRY] } },
        }),
        ...errors({}),
      },
    },
    'DELETE /_sim/webhooks/inbox': {
      summary: 'Empty the development receiver’s inbox',
      tags: CONTROL_TAGS,
      response: { ...NO_CONTENT, ...errors({}) },
    },
  };
}
