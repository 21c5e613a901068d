/**
 * Carries out what decide-payout.ts decides, inside the caller's database transaction: the payout's
 * new status and outcome, and the shop's systems told (`payout.succeeded`, `payout.failed`, in the
 * same transaction: the outbox). Nothing here decides.
 */
import type { Kysely } from 'kysely';
import { PAYOUT_FAILURES_EN, payoutFailure } from '@mpesa/shared/contract-payouts';
import type { CallbackOutcome, Database, PayoutRow } from '../../db/schema.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';
import { enqueueWebhookEvent } from '../webhooks/index.ts';
import { NO_SUCH_TRANSACTION, type PayoutDecision } from './decide-payout.ts';
import { toPayoutDto } from './payout-dto.ts';
import * as repo from './payouts.repository.ts';

type Db = Kysely<Database>;

const fit = (text: string | null, max: number) => (text === null ? null : text.slice(0, max));

/**
 * The plain words of a failure, then M-PESA's own: "The receiver has reached … (M-PESA: Declined
 * due to limit rule: …)". `key` names the words when there is no code (unreachable, refused).
 */
export function failureDescription(resultCode: string | null, said: string | null, key?: string) {
  const plain = payoutFailure(
    PAYOUT_FAILURES_EN,
    key ?? (resultCode === NO_SUCH_TRANSACTION ? 'lost' : resultCode),
  );
  return fit(said ? `${plain} (M-PESA: ${said})` : plain, MAX_LENGTH.resultDescription)!;
}

async function tell(trx: Db, id: string, type: 'payout.succeeded' | 'payout.failed', at: string) {
  const row = await repo.findPayoutById(trx, id);
  if (!row) return;
  await enqueueWebhookEvent(trx, {
    type,
    transactionId: null,
    data: { payout: toPayoutDto(row) },
    at: new Date(at),
  });
}

/** The payout failed: nothing was paid; it may be corrected as a new payout. */
export async function failPayout(
  trx: Db,
  payout: PayoutRow,
  failure: { resultCode: string | null; description: string },
  at: string,
): Promise<boolean> {
  const changed = await repo.updatePayoutFrom(trx, payout.id, payout.status, {
    status: 'failed',
    result_code: fit(failure.resultCode, MAX_LENGTH.resultCode),
    result_description: failure.description,
    updated_at: at,
    next_check_at: null,
    lease_owner: null,
    lease_until: null,
  });
  if (changed) await tell(trx, payout.id, 'payout.failed', at);
  return changed;
}

/** What a report a payout's answer, Result or status query brought changed; none: nothing. */
export async function carryOutPayout(
  trx: Db,
  payout: PayoutRow,
  decision: Exclude<PayoutDecision, { kind: 'resend' }>,
  at: string,
): Promise<Extract<CallbackOutcome, 'applied' | 'duplicate' | 'ignored'>> {
  switch (decision.kind) {
    case 'succeeded': {
      const changed = await repo.updatePayoutFrom(trx, payout.id, payout.status, {
        status: 'succeeded',
        result_code: fit(decision.resultCode, MAX_LENGTH.resultCode),
        result_description: fit(decision.description, MAX_LENGTH.resultDescription),
        receipt: fit(decision.receipt, MAX_LENGTH.receiptNumber),
        receiver_name: fit(decision.receiverName, MAX_LENGTH.payerName),
        charge_cents: decision.chargeCents,
        updated_at: at,
        // A B2C Result carries no charge: transaction status is asked for it (payout-recovery.ts).
        next_check_at: decision.chargeCents === null ? at : null,
        check_attempts: 0,
        lease_owner: null,
        lease_until: null,
      });
      if (!changed) return 'ignored';
      await tell(trx, payout.id, 'payout.succeeded', at);
      return 'applied';
    }
    case 'failed': {
      const description = failureDescription(decision.resultCode, decision.said);
      const failed = await failPayout(trx, payout, { ...decision, description }, at);
      return failed ? 'applied' : 'ignored';
    }
    case 'charge': {
      const changed = await repo.updatePayoutFrom(trx, payout.id, 'succeeded', {
        charge_cents: decision.chargeCents,
        receiver_name: payout.receiver_name ?? fit(decision.receiverName, MAX_LENGTH.payerName),
        next_check_at: null,
        updated_at: at,
      });
      return changed ? 'applied' : 'ignored';
    }
    case 'keep':
      return decision.outcome;
    case 'later':
      return 'ignored';
  }
}
