/**
 * Payouts (issue 37): proposed by an owner or a cashier, alone or as a batch (payout-proposal.ts);
 * approved or declined by a second owner (maker–checker, PAYOUT_APPROVAL); then sent once.
 *
 * Sent once, whatever happens: approval moves the payout from `proposed` to `sending` only while it
 * is still proposed (two owners at once: one approves, the other is told it is decided) and, in the
 * same commit, keeps its OriginatorConversationID and the time to ask about it, before anything is
 * sent. A crash after that commit leaves a payout the recovery finds and asks about
 * (payout-recovery.ts); a lost answer the same. Nothing sends a payout but that one approval and the
 * recovery's resend of a B2C payout M-PESA has no record of, under the same id (decide-payout.ts).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Payout } from '@mpesa/shared/contract-payouts';
import { recordAudit } from '../../audit/audit.ts';
import { auditDetail } from '../../audit/audit-details.ts';
import type { CallbackUrlFor } from '../../callbacks/callback-paths.ts';
import type { Config } from '../../config.ts';
import type { DarajaMoneyClient } from '../../daraja/daraja-client.ts';
import { DarajaError } from '../../daraja/daraja-error.ts';
import { AppError } from '../../errors/app-error.ts';
import type { Database, PayoutRow } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { isPhonePayout } from '@mpesa/shared/contract-payouts';
import { failPayout, failureDescription } from './payout-outcome.ts';
import { toPayoutDto } from './payout-dto.ts';
import { sendPayout } from './payout-request.ts';
import {
  payoutDecided,
  payoutNotFound,
  payoutOwnApproval,
  payoutsNotSetUp,
} from './payout-refusals.ts';
import * as repo from './payouts.repository.ts';

export interface PayoutDeps {
  db: Kysely<Database>;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Daraja's Result APIs; none (or no initiator): payouts are not set up. */
  money: DarajaMoneyClient | undefined;
  callbackUrlFor: CallbackUrlFor;
  settings: Config['payouts'];
  timeZone: string;
  /** The longest a request to Daraja can take: the payout is held from the recovery meanwhile. */
  leaseMs: number;
}

/** Who acts: a signed-in operator. */
export interface PayoutActor {
  name: string;
  operatorId: string;
  role: 'owner' | 'cashier' | 'viewer';
  address: string | null;
}

const later = (from: Date, ms: number) => new Date(from.getTime() + ms).toISOString();

export function moneyOf(deps: Pick<PayoutDeps, 'money'>): DarajaMoneyClient {
  if (!deps.money?.canReverse) throw payoutsNotSetUp();
  return deps.money;
}

/** Whether one owner's word is enough for a payout this owner proposed (PAYOUT_APPROVAL). */
export function approvedByProposer(
  settings: Pick<Config['payouts'], 'oneOwnerUnder'>,
  role: PayoutActor['role'],
  amount: number,
): boolean {
  return role === 'owner' && amount < settings.oneOwnerUnder;
}

/**
 * Moves a proposed payout to `sending`, with its OriginatorConversationID and the time to ask about
 * it, held by `holder` while it is sent: all in one commit, before anything is sent.
 */
async function recordApproval(
  deps: PayoutDeps,
  id: string,
  by: PayoutActor & { holder: string },
  ownWordEnough: boolean,
): Promise<PayoutRow> {
  const now = deps.now();
  const at = now.toISOString();
  return transact(deps.db, async (trx) => {
    const payout = await repo.findPayoutById(trx, id);
    if (!payout) throw payoutNotFound();
    if (payout.status !== 'proposed') throw payoutDecided(payout.status);
    if (payout.proposed_by_id === by.operatorId && !ownWordEnough) throw payoutOwnApproval();
    const taken = await repo.updatePayoutFrom(trx, id, 'proposed', {
      status: 'sending',
      decided_by: by.name,
      decided_by_id: by.operatorId,
      decided_at: at,
      // Ours for B2C (sent with it; M-PESA refuses it used again), the gateway's for B2B.
      originator_conversation_id: isPhonePayout(payout.kind) ? `payout-${id}` : null,
      updated_at: at,
      next_check_at: later(now, deps.settings.checkAfterS * 1000),
      check_attempts: 0,
      lease_owner: by.holder,
      lease_until: later(now, deps.leaseMs),
    });
    // Another owner's approval or decline committed first.
    if (!taken) throw payoutDecided('decided already');
    await recordAudit(trx, {
      at: now,
      actorKind: 'operator',
      actor: by.name,
      action: 'payout_approved',
      target: id,
      detail: auditDetail.payout(payout.kind, payout.amount, payout.reason),
      address: by.address,
    });
    const approved = await repo.findPayoutById(trx, id);
    if (!approved) throw new Error(`payout ${id} not found after it was approved`);
    return approved;
  });
}

/**
 * Sends a payout in `sending` held by `holder`, and records the answer: the ids acknowledged; a
 * refusal that certainly sent nothing fails it; no answer leaves it for the recovery (a B2B one,
 * whose id only the answer gives, is `unknown` for a person: never sent again).
 *
 * A `resend` (of a payout M-PESA had no record of) that cannot reach Daraja says nothing of the
 * first request, which M-PESA may yet take from its queue: the payout stays `sending`, and is
 * asked about again until PAYOUT_GIVE_UP_S, rather than failed and offered for correction (a
 * correction is a new payout, which would then pay twice).
 */
export async function sendHeld(
  deps: PayoutDeps,
  payout: PayoutRow,
  holder: string,
  { resend = false }: { resend?: boolean } = {},
) {
  const money = moneyOf(deps);
  const at = () => deps.now().toISOString();
  const toPhone = isPhonePayout(payout.kind);
  try {
    const ack = await sendPayout(money, payout, deps.settings.shortcode, {
      resultUrl: deps.callbackUrlFor(toPhone ? 'payout-b2c' : 'payout-b2b'),
      queueTimeoutUrl: deps.callbackUrlFor('queue-timeout'),
    });
    await repo.releasePayout(deps.db, payout.id, holder, 'sending', {
      originator_conversation_id: payout.originator_conversation_id ?? ack.originatorConversationId,
      conversation_id: ack.conversationId,
      updated_at: at(),
    });
  } catch (error) {
    if (!(error instanceof DarajaError)) throw error;
    deps.log.warn(
      { payoutId: payout.id, kind: error.kind, errorCode: error.errorCode },
      'payout request failed',
    );
    if (error.kind === 'unknown' || (resend && error.kind === 'unreachable')) {
      await repo.releasePayout(deps.db, payout.id, holder, 'sending', {
        updated_at: at(),
        ...(toPhone
          ? {}
          : {
              status: 'unknown',
              next_check_at: null,
              result_description:
                'M-PESA’s answer was lost: look for this payment on the M-PESA statement before paying it again.',
            }),
      });
      return;
    }
    const description =
      error.kind === 'unreachable'
        ? failureDescription(null, null, 'unreachable')
        : failureDescription(null, error.errorMessage ?? error.message, 'refused');
    await transact(deps.db, (trx) =>
      failPayout(trx, payout, { resultCode: error.errorCode ?? null, description }, at()),
    );
  }
}

/** `POST /api/payouts/:id/approve`: a second owner's word (or the proposer's, when it is enough). */
export async function approvePayout(
  deps: PayoutDeps,
  id: string,
  by: PayoutActor,
  options: { ownWordEnough?: boolean } = {},
): Promise<Payout> {
  moneyOf(deps);
  const holder = randomUUID();
  const approved = await recordApproval(
    deps,
    id,
    { ...by, holder },
    options.ownWordEnough ?? false,
  );
  await sendHeld(deps, approved, holder);
  deps.log.info({ payoutId: id }, 'payout approved and sent');
  const now = await repo.findPayoutById(deps.db, id);
  return toPayoutDto(now ?? approved);
}

/** `POST /api/payouts/:id/decline`: an owner says no; nothing is sent. */
export async function declinePayout(
  deps: PayoutDeps,
  id: string,
  by: PayoutActor,
  note?: string,
): Promise<Payout> {
  const now = deps.now();
  const at = now.toISOString();
  const row = await transact(deps.db, async (trx) => {
    const payout = await repo.findPayoutById(trx, id);
    if (!payout) throw payoutNotFound();
    if (payout.status !== 'proposed') throw payoutDecided(payout.status);
    const taken = await repo.updatePayoutFrom(trx, id, 'proposed', {
      status: 'declined',
      decided_by: by.name,
      decided_by_id: by.operatorId,
      decided_at: at,
      updated_at: at,
    });
    if (!taken) throw payoutDecided('decided already');
    await recordAudit(trx, {
      at: now,
      actorKind: 'operator',
      actor: by.name,
      action: 'payout_declined',
      target: id,
      detail: `${auditDetail.payout(payout.kind, payout.amount, payout.reason)}${note?.trim() ? `; declined: ${note.trim()}` : ''}`,
      address: by.address,
    });
    return repo.findPayoutById(trx, id);
  });
  return toPayoutDto(row!);
}

/**
 * `POST /api/payouts/batches/:id/approve` or `…/decline`: each payout still proposed in it, one by
 * one (each approved is sent before the next is taken). One that another owner decides meanwhile is
 * theirs: it is left as they decided it and the rest go on. Answers the payouts decided now; none
 * (every one decided by others first) is refused as decided.
 */
export async function decideBatch(
  deps: PayoutDeps,
  batchId: string,
  by: PayoutActor,
  decision: 'approve' | 'decline',
): Promise<Payout[]> {
  const proposed = await repo.proposedOfBatch(deps.db, batchId);
  if (proposed.length === 0) {
    const any = await repo.listPayouts(deps.db, 1, batchId);
    if (any.length === 0) throw payoutNotFound();
    throw payoutDecided(any[0]!.status);
  }
  // Every one is checked before any is sent: a batch the approver proposed is refused whole.
  if (decision === 'approve' && proposed.some((row) => row.proposed_by_id === by.operatorId)) {
    throw payoutOwnApproval();
  }
  const done: Payout[] = [];
  let taken: AppError | undefined;
  for (const row of proposed) {
    try {
      done.push(
        decision === 'approve'
          ? await approvePayout(deps, row.id, by)
          : await declinePayout(deps, row.id, by),
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'PAYOUT_DECIDED') throw error;
      taken = error;
    }
  }
  if (done.length === 0 && taken) throw taken;
  return done;
}

export async function findPayoutDto(deps: Pick<PayoutDeps, 'db'>, id: string): Promise<Payout> {
  const row = await repo.findPayoutById(deps.db, id);
  if (!row) throw payoutNotFound();
  return toPayoutDto(row);
}
