import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { reviewPayment } from '../api/review-api';
import { transactionKeys, type TransactionView } from '../api/transactions-api';

/** What an unknown outcome can be settled as, in the shop's words (the API's REVIEW_STATUS_VALUES). */
const SETTLE_AS = [
  ['success', 'Paid: the M-PESA statement shows the money'],
  ['failed', 'Not paid: the statement does not show it'],
  ['cancelled', 'Cancelled by the customer'],
  ['timeout', 'The prompt was not answered'],
] as const;

type SettleAs = (typeof SETTLE_AS)[number][0];

/**
 * Where the review is. (Kept by hand: TanStack Query's useMutation would put its code in the first
 * screen's download, which shares that package's chunk.)
 */
type Saving = { kind: 'idle' | 'saving' } | { kind: 'failed'; message: string };

/**
 * An owner's review of a payment waiting for a person, as `npm run review` does: a note saying
 * why (kept on the payment's timeline and in the audit trail), and for an unknown outcome what the
 * M-PESA statement shows. Shown when the API says the reader may review (an owner); it refuses
 * anyone else.
 */
export function ReviewForm({
  transaction,
  onSaved,
}: {
  transaction: TransactionView;
  /** Told once the review is saved: the form then gives way to ReviewSaved. */
  onSaved: () => void;
}) {
  const queryClient = useQueryClient();
  const noteId = useId();
  const statusId = useId();
  const result = useRef<HTMLParagraphElement>(null);
  const [note, setNote] = useState('');
  const [settleAs, setSettleAs] = useState<SettleAs | ''>('');
  const unknown = transaction.status === 'unknown';
  const [saving, setSaving] = useState<Saving>({ kind: 'idle' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving({ kind: 'saving' });
    try {
      await reviewPayment(transaction._id, { note, ...(settleAs ? { status: settleAs } : {}) });
      onSaved();
    } catch (error) {
      const message = error instanceof ApiError ? error.message : '';
      setSaving({
        kind: 'failed',
        message: message || 'The review could not be saved. Please try again.',
      });
      result.current?.focus();
    }
    // The payment and its timeline (kept under the payment's key) are read again.
    void queryClient.invalidateQueries({ queryKey: transactionKeys.detail(transaction._id) });
  };
  return (
    <form
      className="review-form"
      onSubmit={(event) => void submit(event)}
      aria-labelledby={`${noteId}-title`}
    >
      <h3 id={`${noteId}-title`}>Review this payment</h3>
      {unknown && (
        <div className="form-group">
          <label htmlFor={statusId}>What the M-PESA statement shows</label>
          <select
            id={statusId}
            required
            value={settleAs}
            onChange={(event) => setSettleAs(event.target.value as SettleAs | '')}
          >
            <option value="">Choose one</option>
            {SETTLE_AS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="form-group">
        <label htmlFor={noteId}>Why (kept on the payment’s timeline)</label>
        <textarea
          id={noteId}
          required
          maxLength={1000}
          rows={3}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      <button type="submit" className="button button-primary" disabled={saving.kind === 'saving'}>
        {saving.kind === 'saving' ? 'Saving...' : 'Save review'}
      </button>
      <p ref={result} tabIndex={-1} role={saving.kind === 'failed' ? 'alert' : 'status'}>
        {saving.kind === 'failed' ? saving.message : ''}
      </p>
    </form>
  );
}

/**
 * In the form's place once the review is saved (the payment, read again, may need none now), and
 * focused, so that a screen reader hears it.
 */
export function ReviewSaved() {
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => said.current?.focus(), []);
  return (
    <p ref={said} tabIndex={-1} role="status" className="success-message">
      Review saved. The note is on the payment’s timeline.
    </p>
  );
}
