import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { LoadMore } from '../../../lib/load-more';
import { ApiError } from '../../../lib/api-client';
import { meQueryOptions } from '../../auth/api/auth-api';
import { isUnauthenticated } from '../../auth/unauthenticated';
import { SignInNotice } from '../../auth/components/sign-in-notice';
import { formatAmount, formatDate, formatNumber } from '../../../lib/format';
import { useLanguage, useWords } from '../../../i18n/words';
import { useRefusalMessage } from '../../../i18n/refusal-words';
import {
  exportUrl,
  filtersFromSearch,
  selectionTotalsQueryOptions,
  transactionsQueryOptions,
  type ListFilters,
  type Transaction,
} from '../api/transactions-api';
import { ConnectionNotice, useQueryHealth } from './connection-notice';
import { HistoryFilters, type FilterChange } from './history-filters';
import { HistorySummary } from './history-summary';
import { StatusBadge } from './status-badge';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { withQueries } from '../../../lib/queries';
import { historyWords, type HistoryWords } from '../history-words';
import { statusWords } from '../status-words';
import { ReferenceCell, referenceOf } from './reference-cell';
import { detailsWords } from './details-words';
import { ReceiptCheck } from './receipt-check';
import { moneyOutFiltersFrom } from '../../payouts/api/payouts-api';
import { MoneyOutHistory } from '../../payouts/components/money-out-history';
import { MoneyOutGlance } from '../../payouts/components/money-out-glance';
import { MoneySwitch } from '../../payouts/components/money-switch';
import '../money.css';

/**
 * The columns, in the specification's order, each with its `data-label`: the English name in every
 * language, a hook for the narrow screens' layout (styles.css), never shown.
 */
const LABEL = {
  reference: 'Reference',
  phoneNumber: 'Phone Number',
  amount: 'Amount',
  status: 'Status',
  date: 'Date',
  action: 'Action',
} as const satisfies Record<keyof HistoryWords['columns'], string>;
const COLUMNS = Object.keys(LABEL) as Array<keyof typeof LABEL>;

/**
 * The payments, one row each. Explicit roles keep the table's meaning for screen readers when
 * narrow screens restyle each row as a card.
 */
function TransactionTable({
  rows,
  firstNew,
}: {
  rows: Transaction[];
  firstNew: { index: number; link: RefObject<HTMLAnchorElement | null> };
}) {
  const words = useWords(historyWords);
  const details = useWords(detailsWords);
  const statuses = useWords(statusWords);
  const language = useLanguage();
  return (
    <table className="transaction-table" role="table" aria-labelledby="transactions-title">
      <thead role="rowgroup">
        <tr role="row">
          {COLUMNS.map((column) => (
            <th key={column} role="columnheader" scope="col">
              {words.columns[column]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {rows.map((transaction, index) => (
          <tr key={transaction._id} role="row" className={`row-status-${transaction.status}`}>
            <td role="cell" data-label={LABEL.reference}>
              <ReferenceCell transaction={transaction} />
            </td>
            <td role="cell" data-label={LABEL.phoneNumber}>
              {transaction.phoneNumber}
            </td>
            <td role="cell" data-label={LABEL.amount}>
              {formatAmount(transaction.amount, language)}
            </td>
            <td role="cell" data-label={LABEL.status}>
              <StatusBadge status={transaction.status} />
            </td>
            <td role="cell" data-label={LABEL.date}>
              {formatDate(transaction.createdAt, language)}
            </td>
            <td role="cell" data-label={LABEL.action}>
              {/* Its visible text is the specification's; its name says which payment it opens. */}
              <Link
                to={paths.transaction(transaction._id)}
                className="view-link"
                aria-label={words.viewDetailsOf(
                  referenceOf(transaction, words, details),
                  formatAmount(transaction.amount, language),
                  statuses[transaction.status],
                )}
                ref={index === firstNew.index ? firstNew.link : undefined}
              >
                {words.viewDetails}
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Where focus goes as the results change: after a search, to the count of what it found (which
 * brings the results into view on a phone, where they start below the fold); after Load more, to
 * the first new row's link (the button is disabled while it loads, and gone after the last page).
 */
function useResultsFocus(
  rowCount: number,
  loaded: boolean,
  searchText: string,
  fetchNextPage: () => Promise<unknown>,
) {
  const count = useRef<HTMLParagraphElement>(null);
  const link = useRef<HTMLAnchorElement>(null);
  /**
   * The search asked for, until its results are shown: results that come in the meantime (the
   * page's first, on a slow phone, arriving after the search was asked for) are not its results,
   * and focusing their count would lose focus when the search's replace them.
   */
  const searched = useRef<string | null>(null);
  const loadingMore = useRef(false);
  const [firstNew, setFirstNew] = useState(-1);
  useEffect(() => {
    if (!loaded || searched.current !== searchText) return;
    searched.current = null;
    count.current?.focus({ preventScroll: true });
    count.current?.scrollIntoView?.({ block: 'start' });
  }, [loaded, searchText]);
  useEffect(() => {
    if (!loadingMore.current || rowCount <= firstNew) return;
    loadingMore.current = false;
    link.current?.focus();
  }, [rowCount, firstNew]);
  return {
    count,
    firstNew: { index: firstNew, link },
    /**
     * Filters applied: a search sent moves focus to its results' count (now, if they are the ones
     * shown); a box or a date picked leaves it where it is. True when they are new filters: the
     * same ones again (Apply after a box applied itself) are no step for Back.
     */
    onFilters: (next: string, how: FilterChange): boolean => {
      const asked = new URLSearchParams(next).toString();
      if (how === 'searched' && asked !== searchText) searched.current = asked;
      else if (how === 'searched' && loaded) count.current?.focus({ preventScroll: true });
      return asked !== searchText;
    },
    loadMore: () => {
      loadingMore.current = true;
      setFirstNew(rowCount);
      void fetchNextPage();
    },
  };
}

/** What a search found, in a live region present from the start so that it is announced. */
function ResultsStatus({
  rows,
  more,
  count,
  filters,
}: {
  rows: Transaction[] | undefined;
  more: boolean;
  filters: ListFilters;
  count: RefObject<HTMLParagraphElement | null>;
}) {
  const words = useWords(historyWords);
  const language = useLanguage();
  return (
    <div role="status" className="history-results">
      {rows && (
        <p ref={count} tabIndex={-1} className={rows.length ? 'history-count' : 'empty'}>
          {rows.length
            ? words.found(rows.length, formatNumber(rows.length, language), more)
            : words.empty}
        </p>
      )}
      {rows && rows.length > 0 && <SelectionTotalsLine filters={filters} />}
    </div>
  );
}

/** Under what a filter found: what the whole selection adds up to (not only the rows shown). */
function SelectionTotalsLine({ filters }: { filters: ListFilters }) {
  const words = useWords(historyWords);
  const language = useLanguage();
  const options = selectionTotalsQueryOptions(filters);
  const { data } = useQuery(options);
  // None while no filter is in use; otherwise its room is kept while it comes, so that nothing
  // below moves under a finger or a click.
  if (!options.enabled) return null;
  return (
    <p className="history-totals">
      {data &&
        words.selectionTotals(
          data.count,
          formatNumber(data.count, language),
          data.paidCount,
          formatNumber(data.paidCount, language),
          formatAmount(data.paid, language),
        )}
    </p>
  );
}

function MorePayments({ loading, onClick }: { loading: boolean; onClick: () => void }) {
  const words = useWords(historyWords);
  return (
    <LoadMore
      loading={loading}
      onClick={onClick}
      label={words.loadMore}
      loadingLabel={words.loadingMore}
    />
  );
}

/** The history's money out: the payouts, apart from the payments (features/payouts). */
function MoneyOutScreen() {
  const words = useWords(historyWords);
  useDocumentTitle(words.screenTitle);
  const [search] = useSearchParams();
  const searchText = search.toString();
  const filters = useMemo(() => moneyOutFiltersFrom(new URLSearchParams(searchText)), [searchText]);
  return (
    <section className="card transaction-list" aria-labelledby="transactions-title">
      <h2 id="transactions-title">{words.title}</h2>
      <HistorySummary />
      <MoneySwitch />
      <MoneyOutHistory filters={filters} />
    </section>
  );
}

/** The history: the money in (the specification's screen), or the money out (`?money=out`). */
export const TransactionList = withQueries(function TransactionListScreen() {
  const [search] = useSearchParams();
  return search.get('money') === 'out' ? <MoneyOutScreen /> : <MoneyInScreen />;
});

function MoneyInScreen() {
  const words = useWords(historyWords);
  const language = useLanguage();
  const refusalMessage = useRefusalMessage();
  useDocumentTitle(words.screenTitle);
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
  const focus = useResultsFocus(rows.length, Boolean(data), searchText, fetchNextPage);
  // A filter the server refused (a bad date in a shared address) is named under the spec's text.
  const refusal =
    health.error instanceof ApiError && health.error.status === 400
      ? refusalMessage(health.error)
      : '';

  // HISTORY_ACCESS=operators and no valid session: the figures, the export and the rows are all
  // refused alike, so one notice takes the place of them all.
  if (health.failed && isUnauthenticated(health.error)) {
    return (
      <section className="card transaction-list" aria-labelledby="transactions-title">
        <h2 id="transactions-title">{words.title}</h2>
        <div role="alert">
          <SignInNotice />
        </div>
      </section>
    );
  }

  return (
    <section className="card transaction-list" aria-labelledby="transactions-title">
      <h2 id="transactions-title">{words.title}</h2>
      <HistorySummary />
      <HistoryFilters
        filters={filters}
        onChange={(next, how) => {
          if (focus.onFilters(next, how)) void navigate(`${paths.transactions}${next}`);
        }}
      />
      {mayExport && (
        <p className="history-export">
          <a className="button button-secondary" href={exportUrl(filters, language)} download>
            {words.exportCsv}
          </a>
        </p>
      )}
      <ReceiptCheck />
      {data ? null : health.failed ? (
        <div role="alert">
          <p className="error-message">{words.failed}</p>
          {refusal && <p className="error-detail">{refusal}</p>}
        </div>
      ) : (
        <p className="loading" role="status">
          {words.loading}
        </p>
      )}
      <ConnectionNotice query={query} health={health} />
      <ResultsStatus rows={data && rows} more={hasNextPage} count={focus.count} filters={filters} />
      {rows.length > 0 && <TransactionTable rows={rows} firstNew={focus.firstNew} />}
      {isFetchNextPageError && (
        <p className="error-detail" role="alert">
          {words.moreFailed}
        </p>
      )}
      {hasNextPage && <MorePayments loading={isFetchingNextPage} onClick={focus.loadMore} />}
      {/* On a phone, money out and the balance come under the payments, which start near the top. */}
      {operator && <MoneyOutGlance mayAsk={operator.role !== 'viewer'} place="bottom" />}
    </section>
  );
}
