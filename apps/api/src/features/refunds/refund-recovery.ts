/**
 * A refund whose Result does not come is recovered by asking M-PESA (docs/daraja-protocol.md §M5),
 * as reconciliation recovers a payment's lost callback (features/reconciliation/reconciler.ts), beside which
 * it runs in every instance that reconciles.
 *
 * A requested refund is due REFUND_CHECK_AFTER_S after it was asked for, then with backoff. An
 * instance claims due refunds with a lease, so that no two ask about the same one at once. A
 * refund whose reversal was acknowledged is asked about by transaction status, by the reversal's
 * OriginatorConversationID; its answer comes as a Result (refund-results.ts). One whose
 * acknowledgement never came has nothing to ask about: the reversal is sent again, which is safe,
 * since M-PESA reverses a receipt once and answers R000001 (already reversed) if it has (§M7).
 */
import { randomUUID } from 'node:crypto';
import type { RefundRow } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { startLoop, whileFull, type BackgroundLoop } from '../../db/background-loop.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import { findTransactionById } from '../payments/index.ts';
import { failRefund } from './refund-outcome.ts';
import { ackPatch, askReversal, sendingFailure, type RefundDeps } from './refunds.service.ts';
import * as repo from './refunds.repository.ts';

export interface RefundRecoveryDeps extends RefundDeps {
  /** Names this instance's leases. */
  instanceId: string;
}

const BATCH = 20;
/** The longest wait between two checks of one refund. */
const MAX_BACKOFF_S = 3600;

const iso = (ms: number) => new Date(ms).toISOString();

/** Seconds until the next check after `attempts` checks: doubling from REFUND_CHECK_AFTER_S. */
export function refundBackoffS(checkAfterS: number, attempts: number): number {
  return Math.min(checkAfterS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_S);
}

/**
 * The next check: after the backoff, but not after the give-up time while it is ahead, so that
 * a query is asked then, and its answer (R000002: no record) can end the refund.
 */
function nextCheck(deps: RefundRecoveryDeps, refund: RefundRow, now: number) {
  const attempts = Number(refund.check_attempts) + 1;
  const giveUpAt = Date.parse(refund.created_at) + deps.settings.giveUpS * 1000;
  const backoff = now + refundBackoffS(deps.settings.checkAfterS, attempts) * 1000;
  return {
    check_attempts: attempts,
    next_check_at: iso(now < giveUpAt ? Math.min(backoff, giveUpAt) : backoff),
    updated_at: iso(now),
  };
}

/** Sends the reversal again; after REFUND_GIVE_UP_S, one Daraja still refuses fails the refund. */
async function sendAgain(deps: RefundRecoveryDeps, refund: RefundRow, now: number) {
  const payment = await findTransactionById(deps.db, refund.transaction_id);
  const next = nextCheck(deps, refund, now);
  if (!payment) return repo.releaseRefund(deps.db, refund.id, deps.instanceId, next);
  const answer = await askReversal(deps, refund, payment);
  if (answer.sent) {
    return repo.releaseRefund(deps.db, refund.id, deps.instanceId, {
      ...next,
      ...ackPatch(answer.ack),
    });
  }
  const pastGiveUp = now - Date.parse(refund.created_at) >= deps.settings.giveUpS * 1000;
  if (pastGiveUp && answer.error.kind !== 'unknown') {
    await transact(deps.db, (trx) =>
      failRefund(trx, refund, sendingFailure(answer.error), iso(now)),
    );
    return;
  }
  return repo.releaseRefund(deps.db, refund.id, deps.instanceId, next);
}

async function checkRefund(deps: RefundRecoveryDeps, refund: RefundRow): Promise<void> {
  const now = deps.now().getTime();
  const next = nextCheck(deps, refund, now);
  if (!deps.money?.canReverse) {
    return repo.releaseRefund(deps.db, refund.id, deps.instanceId, next);
  }
  const originalConversationId = refund.originator_conversation_id;
  if (originalConversationId === null) return sendAgain(deps, refund, now);
  const payment = await findTransactionById(deps.db, refund.transaction_id);
  try {
    const ack = await deps.money.transactionStatus({
      originalConversationId,
      shortcode: payment?.shortcode ?? deps.partyB,
      resultUrl: deps.callbackUrlFor('refund-status'),
      queueTimeoutUrl: deps.callbackUrlFor('queue-timeout'),
      remarks: 'Refund status',
    });
    await repo.releaseRefund(deps.db, refund.id, deps.instanceId, {
      ...next,
      status_query_id: ack.originatorConversationId,
    });
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    // The reversal was acknowledged: whether the money moved is unknown, so the refund stays
    // requested (never failed on a guess), and is asked about again.
    deps.log.warn({ refundId: refund.id, kind: error.kind }, 'refund status query failed');
    await repo.releaseRefund(deps.db, refund.id, deps.instanceId, next);
  }
}

/** Claims and checks every refund due now; how many were checked. */
export async function recoverDueRefunds(deps: RefundRecoveryDeps): Promise<number> {
  const now = deps.now().getTime();
  const claimed = await repo.claimDueRefunds(
    deps.db,
    deps.instanceId,
    iso(now),
    iso(now + deps.leaseMs),
    BATCH,
  );
  for (const refund of claimed) {
    try {
      await checkRefund(deps, refund);
    } catch (error) {
      deps.log.error({ err: error, refundId: refund.id }, 'refund recovery failed');
    }
  }
  return claimed.length;
}

/** Runs `recoverDueRefunds` every `intervalMs` until stopped. */
export function startRefundRecovery(
  deps: Omit<RefundRecoveryDeps, 'instanceId'>,
  intervalMs: number,
): BackgroundLoop {
  const full: RefundRecoveryDeps = { ...deps, instanceId: randomUUID() };
  return startLoop({
    log: full.log,
    words: {
      unavailable: 'refund recovery waits for the database',
      failed: 'refund recovery round failed',
    },
    firstMs: intervalMs,
    intervalMs,
    round: (stopped) => whileFull(() => recoverDueRefunds(full), BATCH, stopped),
  });
}
