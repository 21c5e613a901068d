import { useMemo } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../app/paths';
import { ApiError } from '../../../lib/api-client';
import { meQueryOptions } from '../../auth/api/auth-api';
import { isUnauthenticated } from '../../auth/unauthenticated';
import { SignInNotice } from '../../auth/components/sign-in-notice';
import { formatAmount, formatDate } from '../../../lib/format';
import {
  exportUrl,
  filtersFromSearch,
  transactionsQueryOptions,
  type Transaction,
} from '../api/transactions-api';
import { ConnectionNotice, useQueryHealth } from './connection-notice';
import { HistoryFilters } from './history-filters';
import { HistorySummary } from './history-summary';
import { StatusBadge } from './status-badge';
import { useDocumentTitle } from '../../../lib/use-document-title';

const COLUMNS = ['Reference', 'Phone Number', 'Amount', 'Status', 'Date', 'Action'] as const;

/**
 * The payments, one row each. Explicit roles keep the table's meaning for screen readers when
 * narrow screens restyle each row as a card.
 */
function TransactionTable({ rows }: { rows: Transaction[] }) {
  return (
    <table className="transaction-table" role="table" aria-labelledby="transactions-title">
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
        {rows.map((transaction) => (
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
  );
}

export function TransactionList() {
  useDocumentTitle('Transactions');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const searchText = search.toString();
  const filters = useMemo(() => filtersFromSearch(new URLSearchParams(searchText)), [searchText]);
  const query = useInfiniteQuery(transactionsQueryOptions(filters));
  const { data, hasNextPage, fetchNextPage, isFetchingNextPage, isFetchNextPageError } = query;
  const health = useQueryHealth(query);
  // The export is an owner's (HISTORY_ACCESS=operators); open to all where no one signs in.
  const { data: operator } = useQuery(meQueryOptions());
  const mayExport = !operator || operator.role === 'owner';
  const rows = data?.pages.flatMap((page) => page.data) ?? [];
  // A filter the server refused (a bad date in a shared address) is named under the spec's text.
  const refusal =
    health.error instanceof ApiError && health.error.status === 400 ? health.error.message : '';

  // HISTORY_ACCESS=operators and no valid session: the figures, the export and the rows are all
  // refused alike, so one notice takes the place of them all.
  if (health.failed && isUnauthenticated(health.error)) {
    return (
      <section className="card transaction-list" aria-labelledby="transactions-title">
        <h2 id="transactions-title">Transaction History</h2>
        <div role="alert">
          <SignInNotice />
        </div>
      </section>
    );
  }

  return (
    <section className="card transaction-list" aria-labelledby="transactions-title">
      <h2 id="transactions-title">Transaction History</h2>
      <HistorySummary />
      <HistoryFilters
        key={searchText}
        filters={filters}
        onChange={(next) => void navigate(`${paths.transactions}${next}`)}
      />
      {mayExport && (
        <p className="history-export">
          <a className="button button-secondary" href={exportUrl(filters)} download>
            Export CSV
          </a>
        </p>
      )}
      {data ? null : health.failed ? (
        <div role="alert">
          <p className="error-message">Failed to fetch transactions</p>
          {refusal && <p className="error-detail">{refusal}</p>}
        </div>
      ) : (
        <p className="loading" role="status">
          Loading transactions...
        </p>
      )}
      <ConnectionNotice query={query} health={health} />
      {!data ? null : rows.length === 0 ? (
        <p className="empty">No transactions found.</p>
      ) : (
        <TransactionTable rows={rows} />
      )}
      {isFetchNextPageError && (
        <p className="error-detail" role="alert">
          More transactions could not be loaded.
        </p>
      )}
      {hasNextPage && (
        <button
          type="button"
          className="button button-secondary load-more"
          onClick={() => void fetchNextPage()}
          disabled={isFetchingNextPage}
        >
          {isFetchingNextPage ? 'Loading more...' : 'Load more'}
        </button>
      )}
    </section>
  );
}
