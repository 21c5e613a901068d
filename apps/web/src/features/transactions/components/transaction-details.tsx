import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { DEFAULT_DESCRIPTION, DEFAULT_REFERENCE, localPhoneNumber } from '@mpesa/shared';
import type { MerchantDetails } from '@mpesa/shared/contract';
import { canTryAgain } from '@mpesa/shared/payer-outcomes';
import { paths } from '../../../lib/paths';
import { ApiError } from '../../../lib/api-client';
import { useWords } from '../../../i18n/words';
import type { RepeatPaymentState } from '../../payments/repeat-payment';
import { typedPhone } from '../../payments/typed-phones';
import { useHistoryReachable } from '../../auth/history-reach';
import {
  transactionQueryOptions,
  type Transaction,
  type TransactionView,
} from '../api/transactions-api';
import { isOwnRecentPayment, rememberOwnPayment } from '../own-payments';
import { DarajaMessages, FlagNotice } from './merchant-view';
import { DetailList } from './detail-list';
import { detailsWords } from './details-words';
import { outcomeWords } from '../outcome-words';
import { merchantReason, merchantSentence, payerSentence } from '../outcomes';
import { ReviewForm, ReviewSaved } from './review-form';
import { RefundPanel } from './refund-panel';
import '../money.css';
import {
  ConnectionNotice,
  useQueryHealth,
  type QueryHealth,
  type WatchedQuery,
} from './connection-notice';
import { StatusBadge } from './status-badge';
import { TransactionTimeline } from './transaction-timeline';
import { IHavePaid } from './i-have-paid';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { withQueries } from '../../../lib/queries';

/**
 * Whether the page shows the number only in part: "0712 ••• 678" where the history is for operators
 * only, or masked in storage once old. (Here, not in the shared package, whose code the first
 * screen's download carries.)
 */
const shownInPart = (phone: string) => /[•*]/.test(phone);

/**
 * What "Try again" opens the form with: the payment's details, its phone as a payer writes it (where
 * the page shows it only in part, as this tab typed it, or left for the payer to type), and the
 * optional fields empty where the payment had their defaults, which are not the payer's words.
 */
export function tryAgainState(
  transaction: Pick<Transaction, '_id' | 'phoneNumber' | 'amount' | 'reference' | 'description'>,
): RepeatPaymentState {
  return {
    repeat: {
      phoneNumber: shownInPart(transaction.phoneNumber)
        ? typedPhone(transaction._id)
        : localPhoneNumber(transaction.phoneNumber),
      amount: String(transaction.amount),
      reference: transaction.reference === DEFAULT_REFERENCE ? '' : transaction.reference,
      description: transaction.description === DEFAULT_DESCRIPTION ? '' : transaction.description,
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
  const words = useWords(detailsWords);
  const historyReachable = useHistoryReachable();
  return (
    <div className="actions">
      {again && (
        <Link to={paths.home} state={tryAgainState(again)} className="button button-primary">
          {words.tryAgain}
        </Link>
      )}
      {historyReachable && (
        <Link to={paths.transactions} className="button button-secondary">
          {words.backToTransactions}
        </Link>
      )}
      <Link
        to={paths.home}
        className={again || pending ? 'button button-secondary' : 'button button-primary'}
      >
        {words.anotherPayment}
      </Link>
    </div>
  );
}

/** The screen without its payment: loading it, or why it could not be shown. */
function DetailsUnavailable({ query, health }: { query: WatchedQuery; health: QueryHealth }) {
  const words = useWords(detailsWords);
  if (!health.failed) {
    return (
      <section className="card">
        <h2>{words.title}</h2>
        <p className="loading" role="status">
          {words.loading}
        </p>
        <ConnectionNotice query={query} health={health} />
      </section>
    );
  }
  const notFound = health.error instanceof ApiError && health.error.status === 404;
  return (
    <section className="card">
      <h2>{words.title}</h2>
      {notFound ? (
        <p className="not-found" role="alert">
          {words.notFound}
        </p>
      ) : (
        <p className="error-message" role="alert">
          {words.fetchFailed}
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
  const words = useWords(detailsWords);
  const outcomes = useWords(outcomeWords);
  return (
    <div className="transaction-status" aria-live="polite" aria-atomic="true">
      <StatusBadge status={transaction.status} large />
      {transaction.status === 'pending' ? (
        <div className="pending-message">
          <p>{merchant ? merchantSentence(outcomes, 'pending') : words.completeOnPhone}</p>
          <span className="spinner" aria-hidden="true" />
        </div>
      ) : (
        outcome && <span className="visually-hidden">{outcome}</span>
      )}
    </div>
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

/**
 * What only the merchant's view has: M-PESA's own messages, and for an owner the review (of a
 * payment that needs one) and the refund.
 */
function MerchantParts({
  transaction,
  merchant,
}: {
  transaction: TransactionView;
  merchant: MerchantDetails;
}) {
  const [reviewed, setReviewed] = useState(false);
  return (
    <>
      <DarajaMessages transaction={transaction} merchant={merchant} />
      {reviewed ? (
        <ReviewSaved />
      ) : (
        merchant.mayReview && (
          <ReviewForm transaction={transaction} onSaved={() => setReviewed(true)} />
        )
      )}
      <RefundPanel transaction={transaction} merchant={merchant} />
    </>
  );
}

export const TransactionDetails = withQueries(function TransactionDetailsScreen() {
  const words = useWords(detailsWords);
  const outcomes = useWords(outcomeWords);
  useDocumentTitle(words.title);
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
      : merchantSentence(outcomes, transaction.status)
    : transaction.status === 'success' && !transaction.mpesaReceiptNumber
      ? outcomes.paidNoReceipt
      : payerSentence(outcomes, transaction.status, transaction.resultCode);
  // For the merchant, why M-PESA did not take it, by its code; M-PESA's own text stays one click
  // away in DarajaMessages.
  const reason = merchant
    ? merchantReason(outcomes, transaction.status, transaction.resultCode)
    : null;
  return (
    <section className="card transaction-details" aria-labelledby="details-title">
      <h2 id="details-title">{words.title}</h2>

      <ConnectionNotice query={query} health={health} />
      <StatusLine transaction={transaction} outcome={outcome} merchant={merchant !== undefined} />
      {merchant?.flaggedReason && <FlagNotice reason={merchant.flaggedReason} />}
      {transaction.status === 'pending' && !merchant && <IHavePaid transaction={transaction} />}
      {/* While pending, Daraja's acknowledgement would read like a result: not shown to the payer. */}
      <DetailList
        transaction={transaction}
        outcome={outcome}
        reason={reason}
        response={!merchant && transaction.status !== 'pending'}
      />
      {merchant && <MerchantParts transaction={transaction} merchant={merchant} />}

      {/* The payer's page (HISTORY_ACCESS=operators) has no timeline. Where the page is open to
          all (the specification's screens), whoever paid is the likeliest reader: the payer's words. */}
      {transaction.view !== 'payer' && (
        <TransactionTimeline
          id={id}
          status={transaction.status}
          refund={merchant?.refund?.status ?? null}
          reader={merchant ? 'merchant' : 'payer'}
        />
      )}

      <DetailLinks
        again={tryAgainFor(transaction, inApp)}
        pending={transaction.status === 'pending'}
      />
    </section>
  );
});
