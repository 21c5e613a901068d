import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { TRANSACTION_STATUSES } from '@mpesa/shared';
import { paths } from '../../../app/paths';
import { useWords } from '../../../i18n/words';
import { searchFor, type ListFilters } from '../api/transactions-api';
import { historyWords } from '../history-words';
import { statusWords } from '../status-words';

/**
 * Find payments: one search box (phone, receipt or reference), statuses and a date range. The
 * filters live in the address, so a view can be shared, survives a reload, and Back works.
 */
export function HistoryFilters({
  filters,
  onChange,
}: {
  filters: ListFilters;
  onChange: (search: string) => void;
}) {
  const words = useWords(historyWords);
  const statuses = useWords(statusWords);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    const from = text('from');
    const to = text('to');
    const q = text('q');
    onChange(
      searchFor({
        status: form.getAll('status').map(String),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        ...(q ? { q } : {}),
      }),
    );
  };

  return (
    <form
      className="history-filters"
      role="search"
      aria-label={words.findTransactions}
      onSubmit={submit}
    >
      <label className="filter-search">
        {words.search}
        <input
          type="search"
          name="q"
          defaultValue={filters.q ?? ''}
          placeholder={words.searchPlaceholder}
          maxLength={100}
        />
      </label>
      <fieldset className="filter-statuses">
        <legend>{words.status}</legend>
        {TRANSACTION_STATUSES.map((status) => (
          <label key={status} className="filter-status">
            <input
              type="checkbox"
              name="status"
              value={status}
              defaultChecked={filters.status.includes(status)}
            />
            {statuses[status]}
          </label>
        ))}
      </fieldset>
      <label>
        {words.from}
        <input type="date" name="from" defaultValue={filters.from ?? ''} />
      </label>
      <label>
        {words.to}
        <input type="date" name="to" defaultValue={filters.to ?? ''} />
      </label>
      <div className="filter-actions">
        <button type="submit" className="button button-primary">
          {words.apply}
        </button>
        <Link to={paths.transactions} className="filter-clear">
          {words.clear}
        </Link>
      </div>
    </form>
  );
}
