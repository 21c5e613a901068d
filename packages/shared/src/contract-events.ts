/**
 * The HTTP contract of a payment's timeline (`GET /api/mpesa/transactions/:id/events`): what
 * happened to it, in order, in words a merchant reads. Never the messages as received: those may
 * hold the payer's phone number.
 */
import { z } from 'zod';
import { TRANSACTION_STATUSES } from './constants.ts';
import { EventKind } from './event-kinds.ts';

/**
 * Who recorded an event: saving and sending the request (`initiation`), M-PESA's callback, an STK
 * query, reconciliation giving up, a person's review, a refund (asked for, and M-PESA's Result or
 * transaction status about it), or a till or paybill payment told by C2B.
 */
export const EVENT_SOURCES = [
  'initiation',
  'callback',
  'query',
  'reconciliation',
  'review',
  'refund',
  'c2b',
] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

const statusSchema = z.enum(TRANSACTION_STATUSES);

export const transactionEventSchema = z.object({
  /** When it happened, ISO 8601 UTC. */
  at: z.string(),
  source: z.enum(EVENT_SOURCES),
  /**
   * What the event records (event-kinds.ts): the web app words each kind in the reader's
   * language, and never reads `title`, which is English for programs and logs.
   */
  kind: EventKind,
  /** Null for the event that created the transaction. */
  fromStatus: statusSchema.nullable(),
  toStatus: statusSchema,
  /** One sentence: "Accepted by M-PESA", "Callback: paid (receipt UF1E26WQJZ)". */
  title: z.string(),
  /** A short explanation, when there is one (M-PESA's own words, why nothing changed). */
  detail: z.string().nullable(),
  /**
   * What a callback or an STK query answer reported (which may differ from the status kept, when
   * it changed nothing), with the receipt of a payment; null for the other sources.
   */
  reported: z
    .object({ status: statusSchema.exclude(['pending']), receipt: z.string().nullable() })
    .nullable(),
  /** Who reviewed the payment, for a review in the web app; null otherwise. */
  reviewer: z.string().nullable(),
});
export type TransactionEvent = z.infer<typeof transactionEventSchema>;

export const transactionEventsResponseSchema = z.object({
  success: z.literal(true),
  /** Oldest first. */
  data: z.array(transactionEventSchema),
});
export type TransactionEventsResponse = z.infer<typeof transactionEventsResponseSchema>;
