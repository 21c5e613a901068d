import { useQuery, useInfiniteQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useLanguage, useWords } from '../../../i18n/words';
import { formatAmount, formatDate, formatNumber } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { LoadMore } from '../../../lib/load-more';
import { meQueryOptions } from '../../auth/api/auth-api';
import { SignInNotice } from '../../auth/components/sign-in-notice';
import { isUnauthenticated } from '../../auth/unauthenticated';
import {
  moneyOutExportUrl,
  moneyOutQuery,
  moneyOutQueryOptions,
  type MoneyOutFilters,
  type Payout,
  type PayoutStatus,
} from '../api/payouts-api';
import { payoutWords } from '../payouts-words';
import '../payouts.css';

const STATUSES: readonly PayoutStatus[] = [
  'succeeded',
  'sending',
  'proposed',
  'failed',
  'declined',
  'unknown',
];

/** Which payouts: a status and the days proposed, applied to the address. */
function MoneyOutFiltersForm({ filters }: { filters: MoneyOutFilters }) {
  const words = useWords(payoutWords);
  const said = words.moneyOut;
  const navigate = useNavigate();
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const chosen = (name: string) => String(form.get(name) ?? '') || undefined;
    const query = moneyOutQuery(
      {
        status: chosen('status') as PayoutStatus | undefined,
        from: chosen('from'),
        to: chosen('to'),
      },
      {},
    );
    void navigate(`${paths.transactions}?money=out${query.size ? `&${query.toString()}` : ''}`);
  };
  return (
    // Keyed by the address: Back shows the filters the address holds.
    <form
      key={JSON.stringify(filters)}
      className="money-out-filters"
      aria-label={said.filters}
      onSubmit={apply}
    >
      <label>
        {said.status}
        <select name="status" defaultValue={filters.status ?? ''}>
          <option value="">{said.anyStatus}</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {words.statuses[status]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {said.from}
        <input type="date" name="from" defaultValue={filters.from ?? ''} />
      </label>
      <label>
        {said.to}
        <input type="date" name="to" defaultValue={filters.to ?? ''} />
      </label>
      <button type="submit" className="button button-secondary">
        {said.apply}
      </button>
    </form>
  );
}

function PayoutRows({ payouts }: { payouts: Payout[] }) {
  const words = useWords(payoutWords);
  const said = words.moneyOut;
  const language = useLanguage();
  return (
    <div className="money-out-scroll" role="region" aria-label={said.listed} tabIndex={0}>
      <table className="money-out-table">
        <caption className="visually-hidden">{said.moneyOut}</caption>
        <thead>
          <tr>
            <th scope="col">{said.columns.date}</th>
            <th scope="col">{said.columns.to}</th>
            <th scope="col">{said.columns.amount}</th>
            <th scope="col">{said.columns.charge}</th>
            <th scope="col">{said.columns.status}</th>
            <th scope="col">{said.columns.reason}</th>
          </tr>
        </thead>
        <tbody>
          {payouts.map((payout) => (
            <tr key={payout.id} className={`payout-row-${payout.status}`}>
              <td>{formatDate(payout.proposedAt, language)}</td>
              <td>
                {payout.to}
                {payout.account ? ` (${payout.account})` : ''}
              </td>
              <td className="amount">{formatAmount(payout.amount, language)}</td>
              <td className="amount">
                {payout.charge === null ? '' : formatAmount(payout.charge, language)}
              </td>
              <td>{words.statuses[payout.status]}</td>
              <td>{payout.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The history's Money out (`/transactions?money=out`): the payouts, newest first, a page at a
 * time, with their status and charge, and as CSV for an owner. Apart from the money in: none is a
 * payment received.
 */
export function MoneyOutHistory({ filters }: { filters: MoneyOutFilters }) {
  const said = useWords(payoutWords).moneyOut;
  const language = useLanguage();
  const { data: operator } = useQuery(meQueryOptions());
  const query = useInfiniteQuery({ ...moneyOutQueryOptions(filters), enabled: Boolean(operator) });
  const { data, error, isError, hasNextPage, fetchNextPage, isFetchingNextPage } = query;
  if (!operator || isUnauthenticated(error)) return <SignInNotice />;
  const payouts = data?.pages.flatMap((page) => page.payouts) ?? [];
  return (
    <>
      <MoneyOutFiltersForm filters={filters} />
      {operator.role === 'owner' && (
        <p className="history-export">
          <a
            className="button button-secondary"
            href={moneyOutExportUrl(filters, language)}
            download
          >
            {said.exportCsv}
          </a>
        </p>
      )}
      <div role="status" className="history-results">
        {data ? (
          <p className={payouts.length ? 'history-count' : 'empty'}>
            {payouts.length
              ? said.found(payouts.length, formatNumber(payouts.length, language))
              : said.empty}
          </p>
        ) : isError ? (
          <p className="error-message">{said.failed}</p>
        ) : (
          <p className="loading">{said.loading}</p>
        )}
      </div>
      {payouts.length > 0 && <PayoutRows payouts={payouts} />}
      {hasNextPage && (
        <LoadMore
          loading={isFetchingNextPage}
          onClick={() => void fetchNextPage()}
          label={said.loadMore}
          loadingLabel={said.loadingMore}
        />
      )}
    </>
  );
}
