/**
 * A payout proposed, alone or as a batch: checked against the shop's limits (per payout, per
 * business day) and recorded with its audit line in one transaction, then approved at once where
 * one owner's word is enough (PAYOUT_APPROVAL); the rest wait for a second owner
 * (payouts.service.ts).
 */
import type { Kysely } from 'kysely';
import {
  checkPayoutLine,
  type Payout,
  type PayoutLine,
  type ProposePayoutBody,
} from '@mpesa/shared/contract-payouts';
import { recordAudit } from '../../audit/audit.ts';
import { auditDetail } from '../../audit/audit-details.ts';
import type { Database, PayoutRow } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { businessDayOf, nextDay, startOfBusinessDay } from '../../lib/business-day.ts';
import { sortableId } from '../../lib/sortable-id.ts';
import { toPayoutDto } from './payout-dto.ts';
import {
  payoutDailyLimit,
  payoutInvalid,
  payoutNotCorrectable,
  payoutOverLimit,
} from './payout-refusals.ts';
import * as repo from './payouts.repository.ts';
import {
  approvePayout,
  approvedByProposer,
  moneyOf,
  type PayoutActor,
  type PayoutDeps,
} from './payouts.service.ts';

/** The shop's limits on what is proposed now: per payout, and per business day. */
async function checkLimits(trx: Kysely<Database>, deps: PayoutDeps, amounts: number[], now: Date) {
  const { maxAmount, dailyLimit } = deps.settings;
  if (amounts.some((amount) => amount > maxAmount)) throw payoutOverLimit(maxAmount);
  const day = businessDayOf(now, deps.timeZone);
  const from = startOfBusinessDay(day, deps.timeZone);
  const to = startOfBusinessDay(nextDay(day), deps.timeZone);
  await repo.lockDailyLimit(trx);
  const spent = await repo.countedBetween(trx, from, to);
  const asked = amounts.reduce((sum, amount) => sum + amount, 0);
  if (spent + asked > dailyLimit) throw payoutDailyLimit(dailyLimit, dailyLimit - spent);
}

/** A failed payout that `corrects` may replace, or the refusal. */
async function checkCorrection(trx: Kysely<Database>, corrects: string) {
  const original = await repo.findPayoutById(trx, corrects);
  if (!original || original.status !== 'failed') throw payoutNotCorrectable();
  if (await repo.liveCorrectionOf(trx, corrects)) throw payoutNotCorrectable();
}

/**
 * Records payouts as proposed, in one transaction with their audit lines; those one owner's word
 * is enough for are returned to be approved at once.
 */
async function recordProposals(
  deps: PayoutDeps,
  lines: (PayoutLine & { corrects?: string | undefined })[],
  by: PayoutActor,
  batchId: string | null,
): Promise<PayoutRow[]> {
  moneyOf(deps);
  const now = deps.now();
  const at = now.toISOString();
  return transact(deps.db, async (trx) => {
    await checkLimits(
      trx,
      deps,
      lines.map((line) => line.amount),
      now,
    );
    for (const line of lines) if (line.corrects) await checkCorrection(trx, line.corrects);
    const rows = lines.map((line) => ({
      id: sortableId(),
      batch_id: batchId,
      kind: line.kind,
      payee: line.to,
      account: line.account,
      amount: line.amount,
      reason: line.reason,
      status: 'proposed' as const,
      proposed_by: by.name,
      proposed_by_id: by.operatorId,
      corrects_id: line.corrects ?? null,
      created_at: at,
      updated_at: at,
    }));
    await repo.insertPayouts(trx, rows);
    for (const row of rows) {
      await recordAudit(trx, {
        at: now,
        actorKind: 'operator',
        actor: by.name,
        action: 'payout_proposed',
        target: row.id,
        detail: auditDetail.payout(row.kind, row.amount, row.reason),
        address: by.address,
      });
    }
    const saved = await Promise.all(rows.map((row) => repo.findPayoutById(trx, row.id)));
    return saved.filter((row): row is PayoutRow => row !== undefined);
  });
}

/** `POST /api/payouts`: one payout proposed, and sent at once when one owner's word is enough. */
export async function proposePayout(
  deps: PayoutDeps,
  body: ProposePayoutBody,
  by: PayoutActor,
): Promise<Payout> {
  const checked = checkPayoutLine(body);
  if (!checked.ok) {
    const first = checked.problems[0]!;
    throw payoutInvalid(first.field, first.message);
  }
  const [row] = await recordProposals(
    deps,
    [{ ...checked.line, corrects: body.corrects }],
    by,
    null,
  );
  if (!row) throw new Error('payout not found after it was proposed');
  if (approvedByProposer(deps.settings, by.role, row.amount)) {
    return approvePayout(deps, row.id, by, { ownWordEnough: true });
  }
  return toPayoutDto(row);
}

/** A batch, checked whole before this (payout-csv.ts): proposed in one transaction. */
export async function proposeBatch(
  deps: PayoutDeps,
  lines: PayoutLine[],
  by: PayoutActor,
): Promise<{ batchId: string; payouts: Payout[] }> {
  const batchId = sortableId();
  const rows = await recordProposals(deps, lines, by, batchId);
  const payouts: Payout[] = [];
  for (const row of rows) {
    payouts.push(
      approvedByProposer(deps.settings, by.role, row.amount)
        ? await approvePayout(deps, row.id, by, { ownWordEnough: true })
        : toPayoutDto(row),
    );
  }
  return { batchId, payouts };
}
