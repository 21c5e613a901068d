/**
 * Recording a till or paybill payment (docs/product.md §11), the one way both M-PESA's C2B
 * confirmation (§M3.3) and a receipt check's transaction status Result (§M5) do it: a payment with
 * status `success`, marked by its channel, and its event, in one commit; once per receipt.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { tellOfPayment, recordEvent } from '../payments/index.ts';
import { linkOfReference } from '../links/index.ts';
import { transact } from '../../db/transact.ts';
import type { C2bPayment } from './c2b-body.ts';
import { findByReceipt, insertC2bPayment } from './c2b.repository.ts';
import { shownPhone } from './c2b-body.ts';

/** How the payment became known: M-PESA's confirmation, or a receipt the merchant typed. */
export type C2bFoundBy = 'c2b_confirmed' | 'c2b_found';

export interface RecordedC2b {
  transactionId: string;
  /** False: a payment with this receipt was already in the history (nothing was recorded). */
  recorded: boolean;
}

const NOTES: Record<C2bFoundBy, string> = {
  c2b_confirmed: 'paid from the payer’s phone; M-PESA’s confirmation recorded it',
  c2b_found: 'paid from the payer’s phone; found by M-PESA’s transaction status for its receipt',
};

/**
 * The payload of a till or paybill payment's event, as the timeline reads it
 * (features/history/money-event-sentences.ts): where it was paid and its receipt, never the payer's
 * name or number (the callback kept beside it has them, and retention masks them there).
 */
export function c2bEventPayload(
  payment: Pick<C2bPayment, 'shortcode' | 'channel' | 'reference' | 'receipt'>,
): string {
  return JSON.stringify({
    shortcode: payment.shortcode,
    channel: payment.channel,
    accountReference: payment.reference,
    receipt: payment.receipt,
  });
}

/**
 * Records `payment` unless its receipt is already in the history, by whichever channel (a
 * duplicate confirmation, two deliveries at once, a confirmation and a receipt check crossing, or
 * the receipt of a prompt's payment): then the payment already there is named and nothing is
 * written.
 */
export async function recordC2bPayment(
  db: Kysely<Database>,
  payment: C2bPayment,
  how: { kind: C2bFoundBy; at: string },
): Promise<RecordedC2b> {
  const id = randomUUID();
  // When the customer paid places it in the history and the figures; when M-PESA's time cannot
  // be read, when it was heard of.
  const createdAt = payment.transactionDate ?? how.at;
  const recorded = await transact(db, async (trx) => {
    // The unique index (migration 010) covers till and paybill payments only, for two deliveries
    // at once; a receipt a prompt's callback brought is found here, in the same transaction.
    if (await findByReceipt(trx, payment.receipt)) return false;
    // Paid for a payment link (its reference typed, or carried by its M-PESA QR code).
    const linkId = await linkOfReference(trx, payment.reference, createdAt);
    const inserted = await insertC2bPayment(trx, {
      id,
      reference: payment.reference,
      description: '',
      phone_number: shownPhone(payment.payerMsisdn),
      amount: payment.amount,
      status: 'success',
      merchant_request_id: null,
      checkout_request_id: null,
      result_code: '0',
      response_description: null,
      customer_message: null,
      mpesa_receipt_number: payment.receipt,
      transaction_date: payment.transactionDate,
      created_at: createdAt,
      updated_at: how.at,
      next_check_at: null,
      lease_owner: null,
      lease_until: null,
      flagged_reason: null,
      channel: payment.channel,
      payer_name: payment.payerName,
      payer_msisdn: payment.payerMsisdn,
      shortcode: payment.shortcode,
      link_id: linkId,
    });
    if (!inserted) return false;
    await recordEvent(trx, id, {
      source: 'c2b',
      kind: how.kind,
      from: null,
      to: 'success',
      note: NOTES[how.kind],
      payload: c2bEventPayload(payment),
      at: how.at,
    });
    // The shop's systems hear of it with the payment, once (a duplicate returned above), and of
    // its link's being paid when it was for one.
    await tellOfPayment(trx, 'payment.received', id, how.at);
    return true;
  });
  if (recorded) return { transactionId: id, recorded: true };
  const existing = await findByReceipt(db, payment.receipt);
  if (!existing) throw new Error(`payment ${payment.receipt} was neither recorded nor found`);
  return { transactionId: existing.id, recorded: false };
}
