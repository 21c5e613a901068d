import type { TransactionStatus } from '@mpesa/shared';
import { useWords } from '../../../i18n/words';
import { statusWords } from '../status-words';

export function StatusBadge({
  status,
  large = false,
}: {
  status: TransactionStatus;
  large?: boolean;
}) {
  const words = useWords(statusWords);
  return (
    <span className={`status-badge status-badge-${status}${large ? ' large' : ''}`}>
      {words[status]}
    </span>
  );
}
