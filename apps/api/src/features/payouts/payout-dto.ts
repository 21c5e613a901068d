/** A payout as the shop's signed-in people (and its webhooks) see it. */
import type { Payout } from '@mpesa/shared/contract-payouts';
import type { PayoutRow } from '../../db/schema.ts';

export function toPayoutDto(row: PayoutRow): Payout {
  return {
    id: row.id,
    batchId: row.batch_id,
    kind: row.kind,
    to: row.payee,
    account: row.account,
    amount: Number(row.amount),
    reason: row.reason,
    status: row.status,
    proposedBy: row.proposed_by,
    proposedAt: row.created_at,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    resultCode: row.result_code,
    resultDescription: row.result_description,
    receipt: row.receipt,
    receiverName: row.receiver_name,
    charge: row.charge_cents === null ? null : Number(row.charge_cents) / 100,
    corrects: row.corrects_id,
    updatedAt: row.updated_at,
  };
}
