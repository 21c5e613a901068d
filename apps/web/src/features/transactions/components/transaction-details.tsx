import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { messages } from '@mpesa/shared';
import { paths } from '../../../app/paths';
import { ApiError } from '../../../lib/api-client';
import { formatAmount, formatDate } from '../../../lib/format';
import { transactionQueryOptions } from '../api/transactions-api';
import { StatusBadge } from './status-badge';
import { CopyReceipt } from './copy-receipt';
import { TransactionTimeline } from './transaction-timeline';
import { useDocumentTitle } from '../../../lib/use-document-title';

function DetailRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="detail-row">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** The screen's two ways out (spec §2). */
function DetailLinks() {
  return (
    <div className="actions">
      <Link to={paths.transactions} className="button button-secondary">
        Back to Transactions
      </Link>
      <Link to={paths.home} className="button button-primary">
        Make Another Payment
      </Link>
    </div>
  );
}

export function TransactionDetails() {
  useDocumentTitle('Transaction Details');
  const { id = '' } = useParams();
  const { data: transaction, error, isPending } = useQuery(transactionQueryOptions(id));

  // A failed poll keeps the last good data on screen: it is only logged (spec §8).
  useEffect(() => {
    if (error && transaction) console.warn('Polling the transaction failed:', error);
  }, [error, transaction]);

  if (isPending) {
    return (
      <section className="card">
        <h2>Transaction Details</h2>
        <p className="loading" role="status">
          Loading transaction details...
        </p>
      </section>
    );
  }

  if (!transaction) {
    const notFound = error instanceof ApiError && error.status === 404;
    return (
      <section className="card">
        <h2>Transaction Details</h2>
        {notFound ? (
          <p className="not-found" role="alert">
            {messages.transactionNotFound}
          </p>
        ) : (
          <p className="error-message" role="alert">
            Failed to fetch transaction details
          </p>
        )}
        <DetailLinks />
      </section>
    );
  }

  const receipt = transaction.mpesaReceiptNumber;
  const rowsAfterReceipt = (
    <>
      {transaction.transactionDate && (
        <DetailRow label="Transaction Date" value={formatDate(transaction.transactionDate)} />
      )}
      {transaction.responseDescription && (
        <DetailRow label="Response" value={transaction.responseDescription} />
      )}
    </>
  );

  return (
    <section className="card transaction-details" aria-labelledby="details-title">
      <h2 id="details-title">Transaction Details</h2>

      <div className="transaction-status" aria-live="polite">
        <StatusBadge status={transaction.status} large />
        {transaction.status === 'pending' && (
          <div className="pending-message">
            <p>Please complete the payment on your phone.</p>
            <span className="spinner" aria-hidden="true" />
          </div>
        )}
      </div>

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
          {(transaction.transactionDate || transaction.responseDescription) && (
            <dl className="details">{rowsAfterReceipt}</dl>
          )}
        </>
      )}

      <TransactionTimeline id={id} status={transaction.status} />

      <DetailLinks />
    </section>
  );
}
