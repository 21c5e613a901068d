/** A refund as the API sends it (the contract's `Refund`), from its row. */
import type { Refund } from '@mpesa/shared/contract';
import type { RefundRow } from '../../db/schema.ts';

/** A refund as the merchant's view and the refund route give it (docs/product.md §10). */
export function toRefundDto(row: RefundRow): Refund {
  return {
    id: row.id,
    status: row.status,
    amount: Number(row.amount),
    reason: row.reason,
    requestedBy: row.requested_by,
    requestedAt: row.created_at,
    updatedAt: row.updated_at,
    resultCode: row.result_code,
    resultDescription: row.result_description,
    reversalReceipt: row.reversal_receipt,
  };
}
