import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { TRANSACTION_STATUSES } from '@mpesa/shared';
import { capitalise } from '../../../lib/format';
import { paths } from '../../../app/paths';
import { searchFor, type ListFilters } from '../api/transactions-api';

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
      aria-label="Find transactions"
      onSubmit={submit}
    >
      <label className="filter-search">
        Search
        <input
          type="search"
          name="q"
          defaultValue={filters.q ?? ''}
          placeholder="Phone, receipt or reference"
          maxLength={100}
        />
      </label>
      <fieldset className="filter-statuses">
        <legend>Status</legend>
        {TRANSACTION_STATUSES.map((status) => (
          <label key={status} className="filter-status">
            <input
              type="checkbox"
              name="status"
              value={status}
              defaultChecked={filters.status.includes(status)}
            />
            {capitalise(status)}
          </label>
        ))}
      </fieldset>
      <label>
        From
        <input type="date" name="from" defaultValue={filters.from ?? ''} />
      </label>
      <label>
        To
        <input type="date" name="to" defaultValue={filters.to ?? ''} />
      </label>
      <div className="filter-actions">
        <button type="submit" className="button button-primary">
          Apply
        </button>
        <Link to={paths.transactions} className="filter-clear">
          Clear
        </Link>
      </div>
    </form>
  );
}
