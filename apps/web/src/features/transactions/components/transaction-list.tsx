import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../app/paths';
import { formatAmount, formatDate } from '../../../lib/format';
import { transactionsQueryOptions } from '../api/transactions-api';
import { StatusBadge } from './status-badge';
import { useDocumentTitle } from '../../../lib/use-document-title';

const COLUMNS = ['Reference', 'Phone Number', 'Amount', 'Status', 'Date', 'Action'] as const;

export function TransactionList() {
  useDocumentTitle('Transactions');
  const { data, isPending, isError } = useQuery(transactionsQueryOptions());

  return (
    <section className="card transaction-list" aria-labelledby="transactions-title">
      <h2 id="transactions-title">Transaction History</h2>
      {isPending ? (
        <p className="loading" role="status">
          Loading transactions...
        </p>
      ) : isError ? (
        <p className="error-message" role="alert">
          Failed to fetch transactions
        </p>
      ) : data.length === 0 ? (
        <p className="empty">No transactions found.</p>
      ) : (
        // Explicit roles keep the table's meaning for screen readers when narrow screens restyle
        // each row as a card.
        <table className="transaction-table" role="table">
          <thead role="rowgroup">
            <tr role="row">
              {COLUMNS.map((column) => (
                <th key={column} role="columnheader" scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody role="rowgroup">
            {data.map((transaction) => (
              <tr key={transaction._id} role="row" className={`row-status-${transaction.status}`}>
                <td role="cell" data-label="Reference">
                  {transaction.reference}
                </td>
                <td role="cell" data-label="Phone Number">
                  {transaction.phoneNumber}
                </td>
                <td role="cell" data-label="Amount">
                  {formatAmount(transaction.amount)}
                </td>
                <td role="cell" data-label="Status">
                  <StatusBadge status={transaction.status} />
                </td>
                <td role="cell" data-label="Date">
                  {formatDate(transaction.createdAt)}
                </td>
                <td role="cell" data-label="Action">
                  <Link to={paths.transaction(transaction._id)} className="view-link">
                    View Details
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
