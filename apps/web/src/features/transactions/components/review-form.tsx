import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { useRefusalMessage } from '../../../i18n/refusal-words';
import { useWords } from '../../../i18n/words';
import { reviewPayment } from '../api/review-api';
import { transactionKeys, type TransactionView } from '../api/transactions-api';
import { detailsWords } from './details-words';

/** What an unknown outcome can be settled as (the API's REVIEW_STATUS_VALUES); words in details-words. */
const SETTLE_AS = ['success', 'failed', 'cancelled', 'timeout'] as const;

type SettleAs = (typeof SETTLE_AS)[number];

/**
 * Where the review is. (Kept by hand: TanStack Query's useMutation would put its code in the first
 * screen's download, which shares that package's chunk.)
 */
type Saving = { kind: 'idle' | 'saving' } | { kind: 'failed'; error: unknown };

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
  const words = useWords(detailsWords);
  const refusal = useRefusalMessage();
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
      // The refusal kept, put in words at render time (the API's, by its code).
      setSaving({ kind: 'failed', error });
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
      <h3 id={`${noteId}-title`}>{words.reviewTitle}</h3>
      {unknown && (
        <div className="form-group">
          <label htmlFor={statusId}>{words.statementShows}</label>
          <select
            id={statusId}
            required
            value={settleAs}
            onChange={(event) => setSettleAs(event.target.value as SettleAs | '')}
          >
            <option value="">{words.chooseOne}</option>
            {SETTLE_AS.map((value) => (
              <option key={value} value={value}>
                {words.settleAs[value]}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="form-group">
        <label htmlFor={noteId}>{words.reviewNote}</label>
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
        {saving.kind === 'saving' ? words.saving : words.saveReview}
      </button>
      <p ref={result} tabIndex={-1} role={saving.kind === 'failed' ? 'alert' : 'status'}>
        {saving.kind === 'failed'
          ? (saving.error instanceof ApiError && refusal(saving.error)) || words.reviewFailed
          : ''}
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
  const words = useWords(detailsWords);
  useEffect(() => said.current?.focus(), []);
  return (
    <p ref={said} tabIndex={-1} role="status" className="success-message">
      {words.reviewSaved}
    </p>
  );
}
