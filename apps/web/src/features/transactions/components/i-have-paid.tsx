/**
 * "I have paid": for a payer still told to wait after paying (a callback lost or late), a button
 * that asks M-PESA at once (payer-check-api.ts) and says what it found. It shows after a short
 * wait, once the prompt has had time to be answered; a result updates the page as a poll would.
 */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CheckFound } from '@mpesa/shared/contract-check';
import { useRefusalMessage } from '../../../i18n/refusal-words';
import { useWords } from '../../../i18n/words';
import { ApiError } from '../../../lib/api-client';
import { checkPayment } from '../api/payer-check-api';
import { transactionKeys, type TransactionView } from '../api/transactions-api';
import { detailsWords } from './details-words';

// The English texts, pinned by the tests; every text is in details-words.
export {
  I_HAVE_PAID,
  ASKING,
  STILL_WAITING,
  NOT_SENT,
  UNREACHABLE,
  ANSWERED,
  FAILED,
} from './details-words.en';

/** How long after the payment started the button shows: time enough to answer the prompt. */
export const I_HAVE_PAID_AFTER_MS = 15_000;

const SAID: Record<CheckFound, 'answered' | 'stillWaiting' | 'notSent' | 'unreachable'> = {
  result: 'answered',
  settled: 'answered',
  processing: 'stillWaiting',
  not_sent: 'notSent',
  unreachable: 'unreachable',
};

/** What the check found, kept so that it is put in words at render time. */
type Said = { found: CheckFound } | { error: unknown } | null;

/** Whether the button is due yet: `I_HAVE_PAID_AFTER_MS` after creation, at most that from now. */
function useDue(createdAt: string): boolean {
  const [due, setDue] = useState(false);
  useEffect(() => {
    const left = Math.min(
      Math.max(Date.parse(createdAt) + I_HAVE_PAID_AFTER_MS - Date.now(), 0),
      I_HAVE_PAID_AFTER_MS,
    );
    const timer = setTimeout(() => setDue(true), Number.isNaN(left) ? I_HAVE_PAID_AFTER_MS : left);
    return () => clearTimeout(timer);
  }, [createdAt]);
  return due;
}

export function IHavePaid({ transaction }: { transaction: TransactionView }) {
  const queryClient = useQueryClient();
  const due = useDue(transaction.createdAt);
  const [asking, setAsking] = useState(false);
  const [said, setSaid] = useState<Said>(null);
  const words = useWords(detailsWords);
  const refusal = useRefusalMessage();

  const ask = async () => {
    setAsking(true);
    setSaid(null);
    try {
      const answer = await checkPayment(transaction._id);
      // The page shows the payment as the answer has it, as the next poll would.
      queryClient.setQueryData(transactionKeys.detail(transaction._id), answer.data);
      setSaid({ found: answer.found });
    } catch (error) {
      setSaid({ error });
    } finally {
      setAsking(false);
    }
  };

  return (
    <div className="i-have-paid">
      {due && (
        <button
          type="button"
          className="button button-primary"
          onClick={() => void ask()}
          disabled={asking}
        >
          {asking ? words.asking : words.iHavePaid}
        </button>
      )}
      {/* Always present, so that what the check found is announced when it is said. */}
      <p className="i-have-paid-result" role="status" aria-live="polite">
        {said === null
          ? ''
          : 'found' in said
            ? words[SAID[said.found]]
            : (said.error instanceof ApiError &&
                ((said.error.status === 429 && words.checkTooOften(said.error.retryAfterS)) ||
                  refusal(said.error))) ||
              words.checkFailed}
      </p>
    </div>
  );
}
