/**
 * The outbox (docs/reliability.md, "Webhooks: at least once"): an event is written in the same
 * database transaction as the change it tells of, with one delivery for each enabled endpoint that
 * wants its type. A change rolled back takes its event with it, so nothing is sent for it; a change
 * committed has its event, which the deliverer (deliverer.ts) sends until it is delivered or three
 * days have passed, whatever restarts or crashes come between.
 */
import type { Kysely } from 'kysely';
import type { Transaction as Payment } from '@mpesa/shared/contract';
import type { Payout } from '@mpesa/shared/contract-payouts';
import {
  WEBHOOK_TEST_EVENT,
  type WebhookEventBody,
  type WebhookEventType,
  type WebhookSentType,
} from '@mpesa/shared/contract-webhooks';
import type { Database } from '../../db/schema.ts';
import type { WebhookEndpointRow } from '../../db/webhook-tables.ts';
import { sortableId } from '../../lib/sortable-id.ts';
import * as repo from './webhooks.repository.ts';

export const EVENT_ID_PREFIX = 'evt_';

export type WebhookEventInput = {
  type: WebhookEventType;
  at: Date;
} & (
  | {
      /** The payment the event is about. */
      transactionId: string;
      /** The payment as the merchant's API shows it (toTransactionDto). */
      data: { payment: Payment };
    }
  | {
      /** A payout's event is about no payment. */
      transactionId: null;
      /** The payout as the shop's people see it (features/payouts/). */
      data: { payout: Payout };
    }
);

type EventData = WebhookEventBody['data'];

/** The event types an endpoint wants (its `events` column, a JSON array). */
export function endpointEvents(row: Pick<WebhookEndpointRow, 'events'>): WebhookEventType[] {
  return JSON.parse(row.events) as WebhookEventType[];
}

/** Writes an event and its deliveries to `endpoints`; returns the event's id. */
async function writeEvent(
  trx: Kysely<Database>,
  event: { type: WebhookSentType; transactionId: string | null; data: EventData; at: Date },
  endpoints: readonly WebhookEndpointRow[],
): Promise<string> {
  const id = EVENT_ID_PREFIX + sortableId();
  const at = event.at.toISOString();
  const body: WebhookEventBody = {
    id,
    type: event.type,
    created: Math.floor(event.at.getTime() / 1000),
    data: event.data,
  };
  await repo.insertEvent(trx, {
    id,
    type: event.type,
    transaction_id: event.transactionId,
    body: JSON.stringify(body),
    created_at: at,
  });
  await repo.insertDeliveries(
    trx,
    endpoints.map((endpoint) => ({
      id: sortableId(),
      event_id: id,
      endpoint_id: endpoint.id,
      created_at: at,
      next_attempt_at: at,
    })),
  );
  return id;
}

/**
 * Puts an event in the outbox inside the caller's transaction (db/transact.ts: `trx` must be the
 * transaction that makes the change, never the pool), with a delivery for
 * every enabled endpoint that wants its type; none is written when no endpoint wants it. Returns the
 * event's id (`evt_…`), or null when nothing was written.
 */
export async function enqueueWebhookEvent(
  trx: Kysely<Database>,
  input: WebhookEventInput,
): Promise<string | null> {
  const endpoints = (await repo.listEnabledEndpoints(trx)).filter((endpoint) =>
    endpointEvents(endpoint).includes(input.type),
  );
  if (endpoints.length === 0) return null;
  return writeEvent(
    trx,
    {
      type: input.type,
      transactionId: input.transactionId,
      data: input.data,
      at: input.at,
    },
    endpoints,
  );
}

/** A made-up payment for a test event: marked as a test in its reference and description. */
function samplePayment(at: Date): Payment {
  const when = at.toISOString();
  return {
    _id: 'test_' + sortableId(),
    reference: 'TEST',
    phoneNumber: '254708374149',
    amount: 1,
    description: 'A test event: no money moved',
    status: 'success',
    createdAt: when,
    updatedAt: when,
    merchantRequestId: null,
    checkoutRequestId: null,
    resultCode: '0',
    mpesaReceiptNumber: 'TEST000000',
    transactionDate: when,
    responseDescription: null,
    channel: 'prompt',
    payerName: null,
    linkId: null,
  };
}

/** A `webhook.test` event to `endpoint` only, whatever events it wants and even if disabled. */
export function enqueueTestEvent(
  trx: Kysely<Database>,
  endpoint: WebhookEndpointRow,
  at: Date,
): Promise<string> {
  return writeEvent(
    trx,
    { type: WEBHOOK_TEST_EVENT, transactionId: null, data: { payment: samplePayment(at) }, at },
    [endpoint],
  );
}
