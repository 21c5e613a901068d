import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Refund } from '@mpesa/shared/contract';
import { REFUND_REASON_MAX_LENGTH } from '@mpesa/shared';
import { useRefusalMessage } from '../../../i18n/refusal-words';
import { useLanguage, useWords } from '../../../i18n/words';
import { ApiError } from '../../../lib/api-client';
import { formatAmount } from '../../../lib/format';
import { refundPayment } from '../api/refund-api';
import { transactionKeys, type TransactionView } from '../api/transactions-api';
import { refundWords } from '../refund-words';

/** The reason's least length once trimmed, as the contract's refundRequestSchema takes it. */
const REASON_MIN_LENGTH = 2;

/** Where the refund is (kept by hand, as the review form's, to keep useMutation out). */
type Sending = { kind: 'idle' | 'sending' } | { kind: 'failed'; error: unknown };

/** The payment as it is once the refund is asked for: its refund, and no second one offered. */
function withRefund(view: TransactionView | undefined, refund: Refund) {
  if (!view?.merchant) return view;
  return {
    ...view,
    merchant: { ...view.merchant, refund, mayRefund: false, refundBlockedBy: null },
  };
}

/**
 * Sends the refund once: a second press (a double click, Enter held) while the first is on its
 * way sends nothing. Once asked for, the payment shows its refund at once; then the payment, its
 * timeline, the history and the figures are read again (a refusal can mean the page was out of
 * date: another owner refunded it meanwhile).
 */
export function useRefundRequest(transaction: TransactionView, onSent: () => void) {
  const words = useWords(refundWords);
  const refusal = useRefusalMessage();
  const queryClient = useQueryClient();
  const busy = useRef(false);
  const [sending, setSending] = useState<Sending>({ kind: 'idle' });
  const send = async (reason: string) => {
    if (busy.current) return;
    busy.current = true;
    setSending({ kind: 'sending' });
    try {
      const refund = await refundPayment(transaction._id, { reason, amount: transaction.amount });
      queryClient.setQueryData(
        transactionKeys.detail(transaction._id),
        (view: TransactionView | undefined) => withRefund(view, refund),
      );
      onSent();
    } catch (error) {
      busy.current = false;
      setSending({ kind: 'failed', error });
    }
    void queryClient.invalidateQueries({ queryKey: transactionKeys.all });
  };
  // The API's refusal in the screen's words (by its code); no answer at all, said as such.
  const failure =
    sending.kind === 'failed'
      ? (sending.error instanceof ApiError && refusal(sending.error)) || words.sendFailed
      : '';
  return { sending, failure, send };
}

/** What goes back, and to whom: the number as the page shows it, and the name M-PESA gave. */
function RefundSummary({ id, transaction }: { id: string; transaction: TransactionView }) {
  const words = useWords(refundWords);
  const language = useLanguage();
  const rows: [string, string | null][] = [
    [words.amount, formatAmount(transaction.amount, language)],
    [words.payer, transaction.phoneNumber],
    [words.payerName, transaction.payerName],
  ];
  return (
    <div id={id}>
      <dl className="details refund-summary">
        {rows
          .filter((row): row is [string, string] => Boolean(row[1]))
          .map(([label, value]) => (
            <div key={label} className="detail-row">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <p className="refund-whole">{words.wholePayment}</p>
    </div>
  );
}

/**
 * The confirmation of a refund, in place of its button: the amount and the payer, a reason (2 to
 * 200 characters, counted), and the final "Refund 450 KES". Focus moves into it on opening;
 * Escape or Cancel closes it. What the API answers is said by the panel around it, which stays
 * when the form goes (a refusal, such as another owner's refund meanwhile, reads the payment
 * again, and it may offer no refund then).
 */
export function RefundForm({
  transaction,
  busy,
  onConfirm,
  onCancel,
}: {
  transaction: TransactionView;
  /** The refund is on its way: the buttons wait. */
  busy: boolean;
  /** The reason, trimmed, once it is long enough. */
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}) {
  const words = useWords(refundWords);
  const language = useLanguage();
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const [tooShort, setTooShort] = useState(false);
  useEffect(() => field.current?.focus(), []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    setTooShort(text.length < REASON_MIN_LENGTH);
    if (text.length < REASON_MIN_LENGTH) field.current?.focus();
    else onConfirm(text);
  };
  const described = [`${id}-summary`, `${id}-count`, tooShort ? `${id}-error` : ''];
  return (
    <form
      className="refund-form"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !busy) onCancel();
      }}
    >
      <h4 id={`${id}-title`}>{words.confirmTitle}</h4>
      <RefundSummary id={`${id}-summary`} transaction={transaction} />
      <div className="form-group">
        <label htmlFor={`${id}-reason`}>{words.reasonLabel}</label>
        <textarea
          ref={field}
          id={`${id}-reason`}
          rows={3}
          maxLength={REFUND_REASON_MAX_LENGTH}
          value={reason}
          aria-invalid={tooShort || undefined}
          aria-describedby={described.filter(Boolean).join(' ')}
          onChange={(event) => setReason(event.target.value)}
        />
        <small id={`${id}-count`}>{words.reasonCount(reason.trim().length)}</small>
        {tooShort && (
          <p id={`${id}-error`} className="field-error" role="alert">
            {words.reasonTooShort}
          </p>
        )}
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? words.sending : words.confirm(formatAmount(transaction.amount, language))}
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={onCancel}
          disabled={busy}
        >
          {words.cancel}
        </button>
      </div>
    </form>
  );
}
