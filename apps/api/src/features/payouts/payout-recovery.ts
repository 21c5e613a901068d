/**
 * A payout whose answer or Result does not come is recovered by asking M-PESA (transaction status,
 * docs/daraja-protocol.md §M5), as refunds are (features/refunds/refund-recovery.ts), in every
 * instance that reconciles. A payout in `sending` is due PAYOUT_CHECK_AFTER_S after it was approved
 * (whatever happened then: a crash between keeping its id and sending it included), then with
 * backoff; an instance claims due payouts with a lease, so that no two ask about one at once.
 *
 * - To a phone (B2C): asked about by its own OriginatorConversationID, known before it was sent;
 *   the answer comes as a Result (payout-results.ts), and M-PESA having no record of it sends it
 *   again under that id (decide-payout.ts says why that never pays twice).
 * - To a business (B2B): asked about by the id the acknowledgement gave. With no acknowledgement
 *   there is nothing to ask by, and sending it again could pay twice: it becomes `unknown`, for a
 *   person to look up on the M-PESA statement.
 * - A paid B2C payout's charge, which its Result does not carry, is asked for the same way.
 */
import { randomUUID } from 'node:crypto';
import { isPhonePayout } from '@mpesa/shared/contract-payouts';
import { startLoop, whileFull, type BackgroundLoop } from '../../db/background-loop.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import type { PayoutRow } from '../../db/schema.ts';
import type { PayoutDeps } from './payouts.service.ts';
import * as repo from './payouts.repository.ts';

export interface PayoutRecoveryDeps extends PayoutDeps {
  /** Names this instance's leases. */
  instanceId: string;
}

const BATCH = 20;
const MAX_BACKOFF_S = 3600;
/** A paid payout's charge is asked for this many times at most. */
const CHARGE_ATTEMPTS = 5;

const iso = (ms: number) => new Date(ms).toISOString();

/** Seconds until the next check after `attempts` checks: doubling from PAYOUT_CHECK_AFTER_S. */
export function payoutBackoffS(checkAfterS: number, attempts: number): number {
  return Math.min(checkAfterS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_S);
}

function nextCheck(deps: PayoutRecoveryDeps, payout: PayoutRow, now: number) {
  const attempts = Number(payout.check_attempts) + 1;
  const done = payout.status === 'succeeded' && attempts >= CHARGE_ATTEMPTS;
  return {
    check_attempts: attempts,
    next_check_at: done
      ? null
      : iso(now + payoutBackoffS(deps.settings.checkAfterS, attempts) * 1000),
    updated_at: iso(now),
  };
}

const UNKNOWN_B2B =
  'M-PESA’s answer was lost: look for this payment on the M-PESA statement before paying it again.';

async function checkPayout(deps: PayoutRecoveryDeps, payout: PayoutRow): Promise<void> {
  const now = deps.now().getTime();
  const next = nextCheck(deps, payout, now);
  const release = (patch: repo.PayoutPatch) =>
    repo.releasePayout(deps.db, payout.id, deps.instanceId, payout.status, patch);
  const asked = payout.originator_conversation_id;
  if (!deps.money?.canReverse) return void (await release(next));
  if (asked === null) {
    // A B2B payout with no acknowledgement: nothing to ask by, and never sent again.
    return void (await release({
      ...next,
      status: 'unknown',
      next_check_at: null,
      result_description: UNKNOWN_B2B,
    }));
  }
  try {
    const ack = await deps.money.transactionStatus({
      originalConversationId: asked,
      shortcode: deps.settings.shortcode,
      resultUrl: deps.callbackUrlFor('payout-status'),
      queueTimeoutUrl: deps.callbackUrlFor('queue-timeout'),
      remarks: isPhonePayout(payout.kind) ? 'Payout status' : 'Business payment status',
    });
    await release({ ...next, status_query_id: ack.originatorConversationId });
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    // Whether the money moved is unknown: the payout keeps its status, and is asked about again.
    deps.log.warn({ payoutId: payout.id, kind: error.kind }, 'payout status query failed');
    await release(next);
  }
}

/** Claims and checks every payout due now; how many were checked. */
export async function recoverDuePayouts(deps: PayoutRecoveryDeps): Promise<number> {
  const now = deps.now().getTime();
  const claimed = await repo.claimDuePayouts(
    deps.db,
    deps.instanceId,
    iso(now),
    iso(now + deps.leaseMs),
    BATCH,
  );
  for (const payout of claimed) {
    try {
      await checkPayout(deps, payout);
    } catch (error) {
      deps.log.error({ err: error, payoutId: payout.id }, 'payout recovery failed');
    }
  }
  return claimed.length;
}

/** Runs `recoverDuePayouts` every `intervalMs` until stopped. */
export function startPayoutRecovery(
  deps: Omit<PayoutRecoveryDeps, 'instanceId'>,
  intervalMs: number,
): BackgroundLoop {
  const full: PayoutRecoveryDeps = { ...deps, instanceId: randomUUID() };
  return startLoop({
    log: full.log,
    words: {
      unavailable: 'payout recovery waits for the database',
      failed: 'payout recovery round failed',
    },
    firstMs: intervalMs,
    intervalMs,
    round: (stopped) => whileFull(() => recoverDuePayouts(full), BATCH, stopped),
  });
}
