/**
 * Carries out what decide-refund.ts decides, inside the caller's database transaction: the refund's
 * new status, and the payment's (success → refunded once the money went back), each change
 * recorded as an event of the payment's timeline. Nothing here decides.
 */
import type { Kysely } from 'kysely';
import type { Database, RefundRow } from '../../db/schema.ts';
import {
  tellOfPayment,
  recordEvent,
  findTransactionById,
  updateTransactionFrom,
} from '../payments/index.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';
import type { RefundDecision } from './decide-refund.ts';
import * as repo from './refunds.repository.ts';

type Db = Kysely<Database>;

/** Daraja's words, cut to their column: a long ResultDesc never keeps the outcome from being kept. */
const fitted = (text: string) => text.slice(0, MAX_LENGTH.resultDescription);

/** What became of the report: it changed the refund, or it did not. */
export type Applied = 'applied' | 'duplicate' | 'ignored';

/** The refund failed: the money stayed with the shop, and the owner may ask again. */
export async function failRefund(
  trx: Db,
  refund: RefundRow,
  failure: { resultCode: string | null; description: string },
  at: string,
): Promise<boolean> {
  const changed = await repo.updateRefundFrom(trx, refund.id, refund.status, {
    status: 'failed',
    result_code: failure.resultCode,
    result_description: fitted(failure.description),
    updated_at: at,
    next_check_at: null,
    lease_owner: null,
    lease_until: null,
  });
  if (!changed) return false;
  const payment = await findTransactionById(trx, refund.transaction_id);
  if (payment) {
    await recordEvent(trx, payment.id, {
      source: 'refund',
      kind: 'refund_failed',
      from: payment.status,
      to: payment.status,
      note: `refund failed: ${failure.description}`,
      reason: failure.resultCode,
      // The keys the timeline reads (features/history/money-event-sentences.ts).
      payload: JSON.stringify({
        refundId: refund.id,
        resultCode: failure.resultCode,
        resultDescription: failure.description,
      }),
      at,
    });
  }
  return true;
}

/** The money went back: the refund is reversed, and the payment refunded. */
async function reverseRefund(
  trx: Db,
  refund: RefundRow,
  reversal: Extract<RefundDecision, { kind: 'reversed' }>,
  at: string,
): Promise<boolean> {
  const changed = await repo.updateRefundFrom(trx, refund.id, refund.status, {
    status: 'reversed',
    reversal_receipt: reversal.receipt?.slice(0, MAX_LENGTH.receiptNumber) ?? null,
    result_code: reversal.resultCode,
    result_description: fitted(reversal.description),
    updated_at: at,
    next_check_at: null,
    lease_owner: null,
    lease_until: null,
  });
  if (!changed) return false;
  const payment = await findTransactionById(trx, refund.transaction_id);
  if (!payment) return true;
  // Only a success becomes refunded; a payment a person has since settled otherwise keeps its status,
  // and its timeline still says the money went back.
  const moved =
    payment.status === 'success' &&
    (await updateTransactionFrom(trx, payment.id, 'success', {
      status: 'refunded',
      updated_at: at,
    }));
  const receipt = reversal.receipt ? ` (reversal receipt ${reversal.receipt})` : '';
  await recordEvent(trx, payment.id, {
    source: 'refund',
    kind: 'refunded',
    from: payment.status,
    to: moved ? 'refunded' : payment.status,
    note: `refunded: M-PESA reversed the payment${receipt}`,
    payload: JSON.stringify({
      refundId: refund.id,
      resultCode: reversal.resultCode,
      resultDescription: reversal.description,
      receipt: reversal.receipt,
    }),
    at,
  });
  if (moved) await tellOfPayment(trx, 'payment.refunded', payment.id, at);
  return true;
}

/** Carries `decision` out on `refund`, as it was read in this transaction. */
export async function carryOutRefund(
  trx: Db,
  refund: RefundRow,
  decision: RefundDecision,
  at: string,
): Promise<Applied> {
  switch (decision.kind) {
    case 'reversed':
      return (await reverseRefund(trx, refund, decision, at)) ? 'applied' : 'ignored';
    case 'failed':
      return (await failRefund(trx, refund, decision, at)) ? 'applied' : 'ignored';
    case 'keep':
      return decision.outcome;
    case 'later':
      return 'ignored';
  }
}
