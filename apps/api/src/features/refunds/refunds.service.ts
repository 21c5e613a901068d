/**
 * Refunds by reversal (docs/product.md §10): an owner asks, the refund is recorded in one database
 * transaction (one per payment, whoever clicks at the same moment), then Daraja's Reversal API is
 * asked (docs/daraja-protocol.md §M7). Its Result comes later (refund-results.ts), or the recovery
 * finds out (refund-recovery.ts).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Refund, RefundRequest } from '@mpesa/shared/contract';
import { recordAudit } from '../../audit/audit.ts';
import { auditDetail } from '../../audit/audit-details.ts';
import type { CallbackUrlFor } from '../../callbacks/callback-paths.ts';
import type { DarajaMoneyClient, ResultAck } from '../../daraja/daraja-client.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import type { Database, RefundRow, TransactionRow } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { transactionNotFound } from '../../errors.ts';
import { refundAmountMismatch, refundExists, refundRefused } from './refund-refusals.ts';
import { sortableId } from '../../lib/sortable-id.ts';
import {
  recordEvent,
  findTransactionById,
  findRefundOf,
  toRefundDto,
  refundBlock,
  type RefundPolicy,
} from '../payments/index.ts';
import { failRefund } from './refund-outcome.ts';
import * as repo from './refunds.repository.ts';

export interface RefundDeps {
  db: Kysely<Database>;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Daraja's Result APIs; none: refunds are not set up. */
  money: DarajaMoneyClient | undefined;
  callbackUrlFor: CallbackUrlFor;
  /** config.refunds: REFUND_MAX_AGE_DAYS, REFUND_CHECK_AFTER_S, REFUND_GIVE_UP_S. */
  settings: { maxAgeDays: number; checkAfterS: number; giveUpS: number };
  /** The shortcode prompts are paid to (MPESA_PARTY_B): a payment with none recorded was paid there. */
  partyB: string;
  /** The longest a request to Daraja can take: the refund is held from the recovery meanwhile. */
  leaseMs: number;
}

/** Who asks for a refund: a signed-in owner. */
export interface RefundRequester {
  name: string;
  operatorId: string;
  address: string | null;
}

export function refundPolicy(deps: Pick<RefundDeps, 'money' | 'settings'>): RefundPolicy {
  return { maxAgeDays: deps.settings.maxAgeDays, canReverse: deps.money?.canReverse === true };
}

const later = (from: Date, ms: number) => new Date(from.getTime() + ms).toISOString();

/** Daraja's Remarks: the reason's first 100 characters, and at least 2 (§M7). */
export function remarksFor(reason: string): string {
  const remarks = Array.from(reason).slice(0, 100).join('').trim();
  return Array.from(remarks).length >= 2 ? remarks : 'Refund';
}

/**
 * Records the refund as requested, held by `holder` while the reversal is sent, with the event and
 * the audit line; refuses what the rules refuse. A failed refund is asked for again in place.
 */
async function recordRequest(
  deps: RefundDeps,
  transactionId: string,
  input: RefundRequest,
  by: RefundRequester & { holder: string },
): Promise<{ refund: RefundRow; payment: TransactionRow }> {
  const now = deps.now();
  const at = now.toISOString();
  return transact(deps.db, async (trx) => {
    const payment = await findTransactionById(trx, transactionId);
    if (!payment) throw transactionNotFound();
    const existing = await findRefundOf(trx, transactionId);
    const block = refundBlock(payment, existing, refundPolicy(deps), now);
    if (block) throw refundRefused(block, deps.settings.maxAgeDays);
    const amount = Number(payment.amount);
    if (input.amount !== amount) throw refundAmountMismatch(amount);
    const fields = {
      amount,
      reason: input.reason,
      requested_by: by.name,
      requested_by_id: by.operatorId,
      originator_conversation_id: null,
      conversation_id: null,
      status_query_id: null,
      result_code: null,
      result_description: null,
      reversal_receipt: null,
      created_at: at,
      updated_at: at,
      // Asked about after REFUND_CHECK_AFTER_S, whatever happens to this request (a crash included).
      next_check_at: later(now, deps.settings.checkAfterS * 1000),
      lease_owner: by.holder,
      lease_until: later(now, deps.leaseMs),
    };
    const id = existing?.id ?? sortableId();
    const taken = existing
      ? await repo.retryFailedRefund(trx, id, { ...fields, check_attempts: 0 })
      : await repo.insertRefund(trx, {
          id,
          transaction_id: transactionId,
          status: 'requested',
          ...fields,
        });
    // Another owner's request got there first (the unique transaction_id, or the failed row taken).
    if (!taken) throw refundExists();
    await recordEvent(trx, transactionId, {
      source: 'refund',
      kind: 'refund_requested',
      from: payment.status,
      to: payment.status,
      note: `refund of ${amount} KES requested by ${by.name}: ${input.reason}`,
      // The keys the timeline reads (features/history/money-event-sentences.ts).
      payload: JSON.stringify({ refundId: id, by: by.name, reason: input.reason }),
      at,
    });
    await recordAudit(trx, {
      at: now,
      actorKind: 'operator',
      actor: by.name,
      action: 'refund',
      target: transactionId,
      detail: auditDetail.refunded(amount, input.reason),
      address: by.address,
    });
    const refund = await repo.findRefundById(trx, id);
    if (!refund) throw new Error(`refund ${id} not found after it was recorded`);
    return { refund, payment };
  });
}

/** Daraja's answer to a reversal request: its ids, or why there are none. */
export type ReversalSent = { sent: true; ack: ResultAck } | { sent: false; error: DarajaError };

/** Asks Daraja to reverse the payment `refund` is about. */
export async function askReversal(
  deps: RefundDeps,
  refund: RefundRow,
  payment: Pick<TransactionRow, 'mpesa_receipt_number' | 'shortcode'>,
): Promise<ReversalSent> {
  if (!deps.money || !payment.mpesa_receipt_number) {
    throw new Error(`refund ${refund.id} cannot be sent: no initiator or no receipt`);
  }
  try {
    const ack = await deps.money.reversal({
      transactionId: payment.mpesa_receipt_number,
      amount: Number(refund.amount),
      shortcode: payment.shortcode ?? deps.partyB,
      resultUrl: deps.callbackUrlFor('reversal'),
      queueTimeoutUrl: deps.callbackUrlFor('queue-timeout'),
      remarks: remarksFor(refund.reason),
    });
    return { sent: true, ack };
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    deps.log.warn(
      { refundId: refund.id, kind: error.kind, errorCode: error.errorCode },
      'reversal request failed',
    );
    return { sent: false, error };
  }
}

/** What a refund failed by Daraja's refusal, or by Daraja out of reach, records. */
export function sendingFailure(error: DarajaError) {
  return error.kind === 'rejected'
    ? {
        resultCode: error.errorCode ?? null,
        description: `M-PESA refused the reversal: ${error.errorMessage ?? error.message}`,
      }
    : {
        resultCode: null,
        description:
          'M-PESA could not be reached: no reversal was sent, and the money is still with the shop',
      };
}

/** The reversal's ids, kept so that its Result and the recovery's query find the refund. */
export function ackPatch(ack: ResultAck) {
  return {
    originator_conversation_id: ack.originatorConversationId,
    conversation_id: ack.conversationId,
  };
}

/**
 * `POST /api/mpesa/transactions/:id/refund`: records the refund, then sends the reversal. Daraja's
 * refusal, or Daraja out of reach, fails the refund (nothing was sent); no answer in time leaves it
 * requested for the recovery to find out. The refund as it stands is returned.
 */
export async function requestRefund(
  deps: RefundDeps,
  transactionId: string,
  input: RefundRequest,
  by: RefundRequester,
): Promise<Refund> {
  const holder = randomUUID();
  const { refund, payment } = await recordRequest(deps, transactionId, input, { ...by, holder });
  const answer = await askReversal(deps, refund, payment);
  const at = deps.now().toISOString();
  if (answer.sent) {
    await repo.releaseRefund(deps.db, refund.id, holder, {
      ...ackPatch(answer.ack),
      updated_at: at,
    });
  } else if (answer.error.kind === 'unknown') {
    await repo.releaseRefund(deps.db, refund.id, holder, { updated_at: at });
  } else {
    const failure = sendingFailure(answer.error);
    await transact(deps.db, (trx) => failRefund(trx, refund, failure, at));
  }
  deps.log.info({ refundId: refund.id, transactionId, sent: answer.sent }, 'refund requested');
  const now = await repo.findRefundById(deps.db, refund.id);
  return toRefundDto(now ?? refund);
}
