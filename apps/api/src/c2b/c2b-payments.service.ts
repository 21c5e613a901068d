/**
 * Recording a till or paybill payment (docs/product.md §11), the one way both M-PESA's C2B
 * confirmation (§M3.3) and a receipt check's transaction status Result (§M5) do it: a payment with
 * status `success`, marked by its channel, and its event, in one commit; once per receipt.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { transact } from '../db/transact.ts';
import { recordEvent } from '../transactions/transaction-outcome.ts';
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
 * Records `payment` unless its receipt is already in the history (a duplicate confirmation, two
 * deliveries at once, or a confirmation and a receipt check crossing): then the payment already
 * there is named and nothing is written.
 */
export async function recordC2bPayment(
  db: Kysely<Database>,
  payment: C2bPayment,
  how: { kind: C2bFoundBy; at: string; payload: string },
): Promise<RecordedC2b> {
  const id = randomUUID();
  // When the customer paid places it in the history and the figures; when M-PESA's time cannot
  // be read, when it was heard of.
  const createdAt = payment.transactionDate ?? how.at;
  const recorded = await transact(db, async (trx) => {
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
    });
    if (!inserted) return false;
    await recordEvent(trx, id, {
      source: 'c2b',
      kind: how.kind,
      from: null,
      to: 'success',
      note: NOTES[how.kind],
      payload: how.payload,
      at: how.at,
    });
    return true;
  });
  if (recorded) return { transactionId: id, recorded: true };
  const existing = await findByReceipt(db, payment.receipt);
  if (!existing) throw new Error(`payment ${payment.receipt} was neither recorded nor found`);
  return { transactionId: existing.id, recorded: false };
}
