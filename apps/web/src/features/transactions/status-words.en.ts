import type { TransactionStatus } from '@mpesa/shared';
/**
 * A payment's status as the screens name it: in English the status with its first letter
 * capitalised (docs/product.md §2), in Kiswahili as M-PESA's own messages would say it.
 */
export const en: Record<TransactionStatus, string> = {
  pending: 'Pending',
  success: 'Success',
  failed: 'Failed',
  cancelled: 'Cancelled',
  timeout: 'Timeout',
  unknown: 'Unknown',
  refunded: 'Refunded',
};

export type StatusWords = typeof en;
