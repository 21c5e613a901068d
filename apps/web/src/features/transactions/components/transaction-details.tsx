import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { TRANSACTION_NOT_FOUND_MESSAGE, localPhoneNumber } from '@mpesa/shared';
import { canTryAgain, payerSentence } from '@mpesa/shared/payer-outcomes';
import { paths } from '../../../app/paths';
import { ApiError } from '../../../lib/api-client';
import { formatAmount, formatDate } from '../../../lib/format';
import type { RepeatPaymentState } from '../../payments/repeat-payment';
import {
  transactionQueryOptions,
  type Transaction,
  type TransactionView,
} from '../api/transactions-api';
import { isOwnRecentPayment, rememberOwnPayment } from '../own-payments';
import { DarajaMessages, FlagNotice, MERCHANT_SENTENCES } from './merchant-view';
import { ReviewForm, ReviewSaved } from './review-form';
import {
  ConnectionNotice,
  useQueryHealth,
  type QueryHealth,
  type WatchedQuery,
} from './connection-notice';
import { StatusBadge } from './status-badge';
import { CopyReceipt } from './copy-receipt';
import { TransactionTimeline } from './transaction-timeline';
import { IHavePaid } from './i-have-paid';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { withQueries } from '../../../app/queries';

/** A row of the details; `sentence` for a value that is a sentence, read best left-aligned. */
function DetailRow({
  label,
  value,
  sentence = false,
}: {
  label: string;
  value: string;
  sentence?: boolean;
}) {
  return (
    <div className={sentence ? 'detail-row detail-sentence' : 'detail-row'}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * Whether the page shows the number only in part: "0712 ••• 678" where the history is for operators
 * only, or masked in storage once old. (Here, not in the shared package, whose code the first
 * screen's download carries.)
 */
const shownInPart = (phone: string) => /[•*]/.test(phone);

/**
 * What "Try again" opens the form with: the payment's details, its phone as a payer writes it (left
 * for the payer to type when the page shows it only in part).
 */
export function tryAgainState(
  transaction: Pick<Transaction, 'phoneNumber' | 'amount' | 'reference' | 'description'>,
): RepeatPaymentState {
  return {
    repeat: {
      phoneNumber: shownInPart(transaction.phoneNumber)
        ? ''
        : localPhoneNumber(transaction.phoneNumber),
      amount: String(transaction.amount),
      reference: transaction.reference,
      description: transaction.description,
    },
  };
}

/**
 * The screen's two ways out (docs/product.md §2); and, when `again` is given, "Try again", which
 * opens the form with its details. While the payment is pending, neither is the prominent one: a
 * payer who has paid must not be led to pay again.
 */
function DetailLinks({
  again,
  pending = false,
}: {
  again?: Transaction | undefined;
  pending?: boolean;
}) {
  return (
    <div className="actions">
      {again && (
        <Link to={paths.home} state={tryAgainState(again)} className="button button-primary">
          Try again
        </Link>
      )}
      <Link to={paths.transactions} className="button button-secondary">
        Back to Transactions
      </Link>
      <Link
        to={paths.home}
        className={again || pending ? 'button button-secondary' : 'button button-primary'}
      >
        Make Another Payment
      </Link>
    </div>
  );
}

/** The screen without its payment: loading it, or why it could not be shown. */
function DetailsUnavailable({ query, health }: { query: WatchedQuery; health: QueryHealth }) {
  if (!health.failed) {
    return (
      <section className="card">
        <h2>Transaction Details</h2>
        <p className="loading" role="status">
          Loading transaction details...
        </p>
        <ConnectionNotice query={query} health={health} />
      </section>
    );
  }
  const notFound = health.error instanceof ApiError && health.error.status === 404;
  return (
    <section className="card">
      <h2>Transaction Details</h2>
      {notFound ? (
        <p className="not-found" role="alert">
          {TRANSACTION_NOT_FOUND_MESSAGE}
        </p>
      ) : (
        <p className="error-message" role="alert">
          Failed to fetch transaction details
        </p>
      )}
      <ConnectionNotice query={query} health={health} />
      <DetailLinks />
    </section>
  );
}

/**
 * The status, heard when it changes: the badge, and why, beyond the badge's one word. While it is
 * pending the payer is asked to complete it (docs/product.md §2); the merchant is told it waits.
 */
function StatusLine({
  transaction,
  outcome,
  merchant,
}: {
  transaction: Transaction;
  outcome: string | null;
  merchant: boolean;
}) {
  return (
    <div className="transaction-status" aria-live="polite" aria-atomic="true">
      <StatusBadge status={transaction.status} large />
      {transaction.status === 'pending' ? (
        <div className="pending-message">
          <p>
            {merchant ? MERCHANT_SENTENCES.pending : 'Please complete the payment on your phone.'}
          </p>
          <span className="spinner" aria-hidden="true" />
        </div>
      ) : (
        outcome && <span className="visually-hidden">{outcome}</span>
      )}
    </div>
  );
}

/** The payment's details, with the receipt's copy button under its row. */
function DetailList({
  transaction,
  outcome,
  response = true,
}: {
  transaction: Transaction;
  outcome: string | null;
  /** Daraja's own text as a row (the merchant's view has it with M-PESA's other messages). */
  response?: boolean;
}) {
  const receipt = transaction.mpesaReceiptNumber;
  const rowsAfterReceipt = (
    <>
      {transaction.transactionDate && (
        <DetailRow label="Transaction Date" value={formatDate(transaction.transactionDate)} />
      )}
      {response && transaction.responseDescription && (
        <DetailRow label="Response" value={transaction.responseDescription} sentence />
      )}
      {outcome && <DetailRow label="What this means" value={outcome} sentence />}
    </>
  );
  return (
    <>
      <dl className={receipt ? 'details details-continues' : 'details'}>
        <DetailRow label="Reference" value={transaction.reference} />
        <DetailRow label="Phone Number" value={transaction.phoneNumber} />
        <DetailRow label="Amount" value={formatAmount(transaction.amount)} />
        <DetailRow label="Description" value={transaction.description} />
        <DetailRow label="Created At" value={formatDate(transaction.createdAt)} />
        {receipt ? <DetailRow label="M-PESA Receipt" value={receipt} /> : rowsAfterReceipt}
      </dl>
      {/* The button sits under the receipt's row; a <dl> may hold nothing but its rows. */}
      {receipt && (
        <>
          <CopyReceipt receipt={receipt} />
          {(transaction.transactionDate ||
            (response && transaction.responseDescription) ||
            outcome) && <dl className="details">{rowsAfterReceipt}</dl>}
        </>
      )}
    </>
  );
}

/**
 * "Try again" (no money moved): with the history open to everyone, on every such payment, as the
 * specification's screen has it; on the payer's page (HISTORY_ACCESS=operators) only on this
 * browser's own recent payment; never in the merchant's view, which must not prompt a customer.
 */
function tryAgainFor(transaction: TransactionView, inApp: boolean): Transaction | undefined {
  if (!canTryAgain(transaction.status) || transaction.view === 'merchant') return undefined;
  if (
    transaction.view === 'payer' &&
    !isOwnRecentPayment(transaction._id, transaction.createdAt, { inApp })
  ) {
    return undefined;
  }
  return transaction;
}

export const TransactionDetails = withQueries(function TransactionDetailsScreen() {
  useDocumentTitle('Transaction Details');
  const { id = '' } = useParams();
  const { key: arrival } = useLocation();
  const query = useQuery(transactionQueryOptions(id));
  const { data: transaction, error } = query;
  const health = useQueryHealth(query);

  // A failed poll keeps the last good data on screen, logged (docs/product.md §8) and said
  // (ConnectionNotice).
  useEffect(() => {
    if (error && transaction) console.warn('Polling the transaction failed:', error);
  }, [error, transaction]);

  // Reached from inside the app, not by opening a link: this browser asked for it (own-payments.ts).
  const [reviewed, setReviewed] = useState(false);
  const view = transaction?.view;
  const inApp = arrival !== 'default';
  useEffect(() => {
    if (view === 'payer' && inApp) rememberOwnPayment(id);
  }, [view, inApp, id]);

  if (!transaction) return <DetailsUnavailable query={query} health={health} />;

  const { merchant } = transaction;
  // M-PESA's own words stay in the Response row (or, for the merchant, with its other messages);
  // this says what they mean for the person reading.
  const outcome = merchant
    ? transaction.status === 'pending'
      ? null
      : MERCHANT_SENTENCES[transaction.status]
    : payerSentence(transaction.status, transaction.resultCode);
  return (
    <section className="card transaction-details" aria-labelledby="details-title">
      <h2 id="details-title">Transaction Details</h2>

      <ConnectionNotice query={query} health={health} />
      <StatusLine transaction={transaction} outcome={outcome} merchant={merchant !== undefined} />
      {merchant?.flaggedReason && <FlagNotice reason={merchant.flaggedReason} />}
      {transaction.status === 'pending' && !merchant && <IHavePaid transaction={transaction} />}
      {/* While pending, Daraja's acknowledgement would read like a result: not shown to the payer. */}
      <DetailList
        transaction={transaction}
        outcome={outcome}
        response={!merchant && transaction.status !== 'pending'}
      />
      {merchant && <DarajaMessages transaction={transaction} merchant={merchant} />}
      {reviewed ? (
        <ReviewSaved />
      ) : (
        merchant?.mayReview && (
          <ReviewForm transaction={transaction} onSaved={() => setReviewed(true)} />
        )
      )}

      {/* The timeline is the merchant's: the payer's page (HISTORY_ACCESS=operators) has none. */}
      {transaction.view !== 'payer' && <TransactionTimeline id={id} status={transaction.status} />}

      <DetailLinks
        again={tryAgainFor(transaction, inApp)}
        pending={transaction.status === 'pending'}
      />
    </section>
  );
});
