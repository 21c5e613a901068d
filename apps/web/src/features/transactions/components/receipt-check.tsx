import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ReceiptCheck as Check } from '@mpesa/shared/contract';
import { paths } from '../../../lib/paths';
import { useRefusalMessage } from '../../../i18n/refusal-words';
import { useWords } from '../../../i18n/words';
import { ApiError } from '../../../lib/api-client';
import { useConfig } from '../../system/api/system-api';
import {
  askAboutReceipt,
  receiptCheckKeys,
  receiptCheckQueryOptions,
} from '../api/receipt-check-api';
import { transactionKeys } from '../api/transactions-api';
import { historyWords } from '../history-words';

/** An M-PESA receipt as the contract takes it (receiptCheckRequestSchema): 10 letters and digits. */
const RECEIPT = /^[A-Z0-9]{10}$/;

/** Where sending the receipt is (kept by hand, as the review form's, to keep useMutation out). */
type Sending = { kind: 'idle' | 'sending' } | { kind: 'failed'; error: unknown };

/** What M-PESA's answer means, said where a screen reader hears it. */
function CheckOutcome({ check }: { check: Check }) {
  const words = useWords(historyWords);
  if (check.status === 'asked') return <p>{words.checkingReceipt}</p>;
  if (check.status === 'found') {
    return (
      <p className="success-message">
        {words.receiptFound}{' '}
        {check.transactionId && (
          <Link to={paths.transaction(check.transactionId)}>{words.openPayment}</Link>
        )}
      </p>
    );
  }
  if (check.status === 'not_found') return <p className="error-detail">{words.receiptNotFound}</p>;
  return <p className="error-detail">{words.receiptFailed(check.resultCode)}</p>;
}

/**
 * Sends a receipt to be checked, once at a time, and follows the check until M-PESA has answered;
 * once M-PESA knows the payment, the history and the figures are read again.
 */
function useReceiptCheck() {
  const queryClient = useQueryClient();
  const busy = useRef(false);
  const [sending, setSending] = useState<Sending>({ kind: 'idle' });
  const [checkId, setCheckId] = useState<string | null>(null);
  const { data: check } = useQuery({
    ...receiptCheckQueryOptions(checkId ?? ''),
    enabled: checkId !== null,
  });
  const found = check?.status === 'found';
  useEffect(() => {
    if (found) void queryClient.invalidateQueries({ queryKey: transactionKeys.all });
  }, [found, queryClient]);
  const send = async (receipt: string) => {
    // A second press while the first is on its way asks nothing more.
    if (busy.current) return;
    busy.current = true;
    setSending({ kind: 'sending' });
    try {
      const made = await askAboutReceipt(receipt);
      queryClient.setQueryData(receiptCheckKeys.one(made.id), made);
      setCheckId(made.id);
      setSending({ kind: 'idle' });
    } catch (error) {
      setSending({ kind: 'failed', error });
    } finally {
      busy.current = false;
    }
  };
  return { check, sending, send };
}

/**
 * "Missing a till or paybill payment?": the merchant enters the M-PESA receipt from the payer's
 * SMS, the API asks M-PESA (transaction status, docs/daraja-protocol.md §M5) and the payment joins
 * the history once M-PESA knows it. Asked about every 3 s until M-PESA has answered.
 */
function ReceiptCheckForm() {
  const words = useWords(historyWords);
  const refusal = useRefusalMessage();
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [receipt, setReceipt] = useState('');
  const [invalid, setInvalid] = useState(false);
  const { check, sending, send } = useReceiptCheck();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const asked = receipt.trim().toUpperCase();
    setInvalid(!RECEIPT.test(asked));
    if (!RECEIPT.test(asked)) field.current?.focus();
    else void send(asked);
  };
  const failure =
    sending.kind === 'failed'
      ? (sending.error instanceof ApiError && refusal(sending.error)) || words.receiptSendFailed
      : '';
  return (
    // Folded until asked for: seldom needed, it would push the payments down a phone's screen.
    <details className="receipt-check">
      <summary>
        <h3 id={`${id}-title`}>{words.receiptCheckTitle}</h3>
      </summary>
      <form noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
        <label htmlFor={`${id}-receipt`}>{words.receiptLabel}</label>
        <p id={`${id}-hint`} className="field-hint">
          {words.receiptHint}
        </p>
        <div className="receipt-check-row">
          <input
            ref={field}
            id={`${id}-receipt`}
            name="receipt"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            value={receipt}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? `${id}-error ${id}-hint` : `${id}-hint`}
            onChange={(event) => setReceipt(event.target.value)}
          />
          <button
            type="submit"
            className="button button-secondary"
            disabled={sending.kind === 'sending'}
          >
            {words.checkReceipt}
          </button>
        </div>
        {invalid && (
          <p id={`${id}-error`} className="field-error" role="alert">
            {words.receiptInvalid}
          </p>
        )}
      </form>
      <div role="status">{check && <CheckOutcome check={check} />}</div>
      {/* An alert is announced as it appears; none stands empty on the page. */}
      {failure && (
        <p className="error-detail" role="alert">
          {failure}
        </p>
      )}
    </details>
  );
}

/** The receipt check, where the API takes till or paybill payments (`c2bShortcode`). */
export function ReceiptCheck() {
  const config = useConfig();
  return typeof config?.c2bShortcode === 'string' ? <ReceiptCheckForm /> : null;
}
