import type { TransactionStatus } from '@mpesa/shared';
import { capitalise } from '../../../lib/format';

export function StatusBadge({
  status,
  large = false,
}: {
  status: TransactionStatus;
  large?: boolean;
}) {
  return (
    <span className={`status-badge status-badge-${status}${large ? ' large' : ''}`}>
      {capitalise(status)}
    </span>
  );
}
