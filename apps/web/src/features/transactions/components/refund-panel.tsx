import { useEffect, useId, useRef, useState } from 'react';
import type { MerchantDetails, Refund } from '@mpesa/shared/contract';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatDate } from '../../../lib/format';
import type { TransactionView } from '../api/transactions-api';
import { refundWords } from '../refund-words';
import { RefundForm, useRefundRequest } from './refund-form';

/** Why the refund failed: by M-PESA's code, else M-PESA's own words (English), else that it gave none. */
function FailedBecause({ refund }: { refund: Refund }) {
  const words = useWords(refundWords);
  const byCode = refund.resultCode === null ? undefined : words.failedBecause[refund.resultCode];
  if (byCode) return byCode;
  if (!refund.resultDescription) return words.noReason;
  return (
    <>
      {words.mpesaSaid} <span lang="en">{refund.resultDescription}</span>
    </>
  );
}

/**
 * The refund's life: sent and awaited, reversed (when, and the reversal's receipt), or failed
 * (why); then who asked for it, when and why. In a live region, so that M-PESA's answer is heard
 * when a poll brings it.
 */
function RefundState({ refund }: { refund: Refund }) {
  const words = useWords(refundWords);
  const language = useLanguage();
  return (
    <div className={`refund-state refund-state-${refund.status}`}>
      {refund.status === 'requested' ? (
        <p className="refund-outcome">
          {words.requested} <span className="spinner" aria-hidden="true" />
        </p>
      ) : refund.status === 'reversed' ? (
        <p className="refund-outcome success-message">
          {words.reversed(formatDate(refund.updatedAt, language), refund.reversalReceipt)}
        </p>
      ) : (
        <p className="refund-outcome error-message">
          {words.failed} <FailedBecause refund={refund} />
        </p>
      )}
      <p className="refund-asked">
        {words.askedBy(refund.requestedBy, formatDate(refund.requestedAt, language))} {words.reason}{' '}
        <q>{refund.reason}</q>
      </p>
    </div>
  );
}

/**
 * A refund on the merchant's view of a payment (docs/product.md §10): its state once asked for;
 * for an owner the API lets refund (`mayRefund`), "Refund" (or "Try the refund again" after a
 * failure), which opens the confirmation; and, when the API says why it cannot be refunded
 * (`refundBlockedBy`, said to owners only), that sentence. A cashier or a viewer sees no button:
 * the API gives them `mayRefund` false and no reason, and refuses them anyway.
 */
export function RefundPanel({
  transaction,
  merchant,
}: {
  transaction: TransactionView;
  merchant: MerchantDetails;
}) {
  const words = useWords(refundWords);
  const id = useId();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const state = useRef<HTMLDivElement>(null);
  // Where focus goes once the confirmation has closed: back to its button, or to the refund's
  // state (the button is gone then). Set with the closing, taken after its render.
  const focusAfter = useRef<'opener' | 'state' | null>(null);
  useEffect(() => {
    const target = focusAfter.current;
    if (!target) return;
    focusAfter.current = null;
    (target === 'opener' ? opener : state).current?.focus();
  });

  const request = useRefundRequest(transaction, () => {
    focusAfter.current = 'state';
    setOpen(false);
  });

  const { refund, mayRefund, refundBlockedBy } = merchant;
  // "A refund was asked for already" says nothing the refund's own state does not.
  const blocked = refundBlockedBy === 'exists' && refund ? null : refundBlockedBy;
  // An API older than refunds sends none of these: nothing is shown.
  if (!refund && !mayRefund && !blocked) return null;
  return (
    <section className="refund" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{words.title}</h3>
      <div ref={state} tabIndex={-1} aria-live="polite" className="refund-live">
        {refund && <RefundState refund={refund} />}
      </div>
      {blocked && <p className="refund-blocked">{words.blocked[blocked]}</p>}
      {mayRefund &&
        (open ? (
          <RefundForm
            transaction={transaction}
            busy={request.sending.kind === 'sending'}
            onConfirm={(reason) => void request.send(reason)}
            onCancel={() => {
              focusAfter.current = 'opener';
              setOpen(false);
            }}
          />
        ) : (
          <button
            ref={opener}
            type="button"
            className="button button-secondary"
            onClick={() => setOpen(true)}
          >
            {refund?.status === 'failed' ? words.refundAgain : words.refund}
          </button>
        ))}
      {/* An alert is announced as it appears; none stands empty on the page. */}
      {request.failure && (
        <p className="error-detail" role="alert">
          {request.failure}
        </p>
      )}
    </section>
  );
}
