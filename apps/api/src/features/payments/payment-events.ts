/**
 * Which change to a payment tells the shop's systems what (docs/webhooks.md): a payment reaching a
 * final status, flagged for review, refunded, or a till or paybill payment arriving. Called by the
 * code that makes each change, inside its database transaction, so that the event is committed
 * with the change or not at all (outbox.ts).
 */
import type { Kysely } from 'kysely';
import type { TransactionStatus } from '@mpesa/shared';
import type { WebhookEventType } from '@mpesa/shared/contract-webhooks';
import type { Database, TransactionRow } from '../../db/schema.ts';
import { findTransactionById } from './transactions.repository.ts';
import { endpointEvents, enqueueWebhookEvent, listEnabledEndpoints } from '../webhooks/index.ts';
import { toTransactionDto } from './transaction-dto.ts';

/** The event a payment's new status is told by; none for `pending`. */
const STATUS_EVENTS: Partial<Record<TransactionStatus, WebhookEventType>> = {
  success: 'payment.succeeded',
  failed: 'payment.failed',
  cancelled: 'payment.cancelled',
  timeout: 'payment.timed_out',
  unknown: 'payment.unknown',
  refunded: 'payment.refunded',
};

export function statusEvent(status: TransactionStatus): WebhookEventType | undefined {
  return STATUS_EVENTS[status];
}

/** The events that say a payment was paid: one through a payment link is told as `link.paid` too. */
const PAID: readonly WebhookEventType[] = ['payment.succeeded', 'payment.received'];

/**
 * Puts `type` about payment `transactionId` in the outbox, as the payment stands now in `trx`, and
 * `link.paid` beside a payment's being paid when it came through a payment link. Nothing is read
 * when no enabled endpoint wants either (a shop without webhooks pays one small query).
 */
export async function tellOfPayment(
  trx: Kysely<Database>,
  type: WebhookEventType | undefined,
  transactionId: string,
  at: string,
): Promise<void> {
  if (type === undefined) return;
  const endpoints = await listEnabledEndpoints(trx);
  const wanted = (each: WebhookEventType) =>
    endpoints.some((endpoint) => endpointEvents(endpoint).includes(each));
  const linkToo = PAID.includes(type) && wanted('link.paid');
  if (!wanted(type) && !linkToo) return;
  const row = await findTransactionById(trx, transactionId);
  if (!row) return;
  if (wanted(type)) await enqueuePaymentEvent(trx, type, row, new Date(at));
  if (linkToo && row.link_id !== null) {
    await enqueuePaymentEvent(trx, 'link.paid', row, new Date(at));
  }
}

/** The same, from the payment's row as it stands after the change (what the lead's hooks call). */
export function enqueuePaymentEvent(
  trx: Kysely<Database>,
  type: WebhookEventType,
  row: TransactionRow,
  at: Date,
): Promise<string | null> {
  return enqueueWebhookEvent(trx, {
    type,
    transactionId: row.id,
    data: { payment: toTransactionDto(row) },
    at,
  });
}
