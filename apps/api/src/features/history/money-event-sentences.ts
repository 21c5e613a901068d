/**
 * The timeline's sentences for money that moved without a prompt: a refund asked for
 * and its outcome (source `refund`, docs/daraja-protocol.md §M7), and a till or paybill payment
 * recorded from M-PESA's C2B confirmation or found by its receipt (source `c2b`, §M3, §M5).
 *
 * The refunds and C2B services keep what these sentences need in the event's payload, as JSON:
 * - refund events: `{ by, reason, resultCode, resultDescription, receipt }` (the owner's name as it
 *   was then, the reason they gave, M-PESA's Result for the reversal, and the reversal's receipt);
 * - c2b events: `{ shortcode, channel, accountReference, receipt }`.
 * Every key may be missing (an older event, a Result that never came): the sentence then says less.
 *
 * The timeline may be read by the payer (HISTORY_ACCESS=open), so it never carries a phone number
 * or a payer's name: the payloads hold neither, and a number written in the free texts (an owner's
 * reason, M-PESA's words) is hidden.
 */
import { z } from 'zod';
import { stripControlCharacters } from '@mpesa/shared';
import type { TransactionEvent } from '@mpesa/shared/contract-events';
import type { TimelineRow } from './events.repository.ts';
import { parsedPayload, short } from './event-text.ts';

type Told = Pick<TransactionEvent, 'title' | 'detail'>;

/** A payload's text, whatever JSON type it came as (Daraja's codes come as numbers or strings). */
const text = z
  .union([z.string(), z.number()])
  .transform((value) => stripControlCharacters(String(value)).trim())
  .optional()
  .catch(undefined);

const refundPayloadSchema = z.object({
  by: text,
  reason: text,
  resultCode: text,
  resultDescription: text,
  receipt: text,
});

const c2bPayloadSchema = z.object({
  shortcode: text,
  channel: text,
  accountReference: text,
  receipt: text,
});

/** The payload's fields, each undefined when absent, empty or not text; all of them for none. */
function payloadOf<T extends z.ZodType<Record<string, string | undefined>>>(
  row: TimelineRow,
  schema: T,
): Partial<z.output<T>> {
  const parsed = schema.safeParse(parsedPayload(row.payload));
  if (!parsed.success) return {};
  return Object.fromEntries(
    Object.entries(parsed.data).filter(([, value]) => value !== undefined && value !== ''),
  ) as Partial<z.output<T>>;
}

/** A run of nine or more digits (or a mask's stars), spaced or not: a phone number, kept out. */
const NUMBER_LIKE = /\+?[\d*]+(?:[\s-]?[\d*]+)*/g;

/** The text with anything that may be a phone number (254712345678, 0712 345 678, 2547 ***** 126) hidden. */
export function withoutPhoneNumbers(value: string): string {
  return value.replace(NUMBER_LIKE, (found) =>
    found.replace(/[^\d*]/g, '').length >= 9 ? '[number hidden]' : found,
  );
}

/** Free text for a detail: shortened, with phone numbers hidden. */
const detailOf = (value: string | null | undefined) =>
  short(value === null || value === undefined ? null : withoutPhoneNumbers(value));

/** A refund asked for, and what M-PESA made of it (refunds/, the Reversal Result). */
export function describeRefundEvent(row: TimelineRow): Told {
  const { by, reason, resultCode, resultDescription, receipt } = payloadOf(
    row,
    refundPayloadSchema,
  );
  switch (row.kind) {
    case 'refund_requested':
      return {
        title: by ? `Refund requested by ${short(by)}` : 'Refund requested',
        detail: detailOf(reason),
      };
    case 'refunded':
      return {
        title: `Refunded: M-PESA reversed the payment${receipt ? ` (receipt ${receipt})` : ''}`,
        detail: detailOf(resultDescription),
      };
    case 'refund_failed': {
      const words = resultDescription ? withoutPhoneNumbers(resultDescription) : null;
      return {
        title: short(words ? `Refund failed: ${words}` : 'Refund failed')!,
        detail:
          'The money stayed with the shop; an owner may ask for the refund again.' +
          (resultCode ? ` (Result code ${resultCode}.)` : ''),
      };
    }
    default:
      return { title: 'Refund', detail: detailOf(row.note) };
  }
}

/** Where a till or paybill payment went: "till 600100", "paybill 600000, account INV-7". */
function destination(payload: Partial<z.output<typeof c2bPayloadSchema>>): string | null {
  const { shortcode, channel, accountReference } = payload;
  if (!shortcode) return null;
  if (channel === 'paybill') {
    return accountReference
      ? `paybill ${shortcode}, account ${withoutPhoneNumbers(accountReference)},`
      : `paybill ${shortcode}`;
  }
  return `${channel === 'till' ? 'till' : 'shortcode'} ${shortcode}`;
}

/** A till or paybill payment, as M-PESA told of it (c2b/). */
export function describeC2bEvent(row: TimelineRow): Told {
  const payload = payloadOf(row, c2bPayloadSchema);
  const to = destination(payload);
  const receipt = payload.receipt ? `Receipt ${payload.receipt}.` : null;
  switch (row.kind) {
    case 'c2b_confirmed':
      return {
        title: short(to ? `Paid to ${to} from the M-PESA menu` : 'Paid from the M-PESA menu')!,
        detail: receipt,
      };
    case 'c2b_found':
      return {
        title: 'Found by its receipt: M-PESA confirmed the payment',
        detail: short(
          [receipt, to && `Paid to ${to.replace(/,$/, '')}.`].filter(Boolean).join(' '),
        ),
      };
    default:
      return { title: 'Paid from the M-PESA menu', detail: detailOf(row.note) };
  }
}
