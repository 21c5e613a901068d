/**
 * "I have paid": for a payer still told to wait after paying (a callback lost or late), a button
 * that asks M-PESA at once (payer-check-api.ts) and says what it found. It shows after a short
 * wait, once the prompt has had time to be answered; a result updates the page as a poll would.
 */
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CheckFound } from '@mpesa/shared/contract-check';
import { ApiError } from '../../../lib/api-client';
import { checkPayment } from '../api/payer-check-api';
import { transactionKeys, type TransactionView } from '../api/transactions-api';

// The texts, one constant each (to move into a message table with the other languages).
export const I_HAVE_PAID = 'I have paid';
export const ASKING = 'Asking M-PESA…';
export const STILL_WAITING =
  'M-PESA has not received your payment yet. If you have entered your PIN, wait a few seconds and ask again.';
export const NOT_SENT =
  'M-PESA has not confirmed the payment request yet. Please wait a few seconds and ask again.';
export const UNREACHABLE =
  'M-PESA could not be reached just now. Please ask again in a few seconds.';
export const ANSWERED = 'M-PESA has answered: the status above is up to date.';
export const FAILED = 'Your request could not be sent. Please check your connection and try again.';

/** How long after the payment started the button shows: time enough to answer the prompt. */
export const I_HAVE_PAID_AFTER_MS = 15_000;

const SAID: Record<CheckFound, string> = {
  result: ANSWERED,
  settled: ANSWERED,
  processing: STILL_WAITING,
  not_sent: NOT_SENT,
  unreachable: UNREACHABLE,
};

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
  const [said, setSaid] = useState('');

  const ask = async () => {
    setAsking(true);
    setSaid('');
    try {
      const answer = await checkPayment(transaction._id);
      // The page shows the payment as the answer has it, as the next poll would.
      queryClient.setQueryData(transactionKeys.detail(transaction._id), answer.data);
      setSaid(SAID[answer.found]);
    } catch (error) {
      setSaid(error instanceof ApiError && error.message ? error.message : FAILED);
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
          {asking ? ASKING : I_HAVE_PAID}
        </button>
      )}
      {/* Always present, so that what the check found is announced when it is said. */}
      <p className="i-have-paid-result" role="status" aria-live="polite">
        {said}
      </p>
    </div>
  );
}
