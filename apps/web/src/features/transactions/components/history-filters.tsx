import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { PAYMENT_CHANNELS, TRANSACTION_STATUSES } from '@mpesa/shared';
import { paths } from '../../../lib/paths';
import { useWords } from '../../../i18n/words';
import { searchFor, type ListFilters } from '../api/transactions-api';
import { historyWords } from '../history-words';
import { statusWords } from '../status-words';

/** The filters the form holds, as the address keeps them (empty ones left out). */
function filtersOf(form: FormData): ListFilters {
  const filters: ListFilters = { status: form.getAll('status').map(String) };
  for (const name of ['channel', 'from', 'to', 'q'] as const) {
    const value = String(form.get(name) ?? '').trim();
    if (value) filters[name] = value;
  }
  return filters;
}

/** How the payments came: all, or one of a prompt, a till, a paybill (`channel` in the address). */
function ChannelFilter({ channel }: { channel: string | undefined }) {
  const words = useWords(historyWords);
  return (
    <label className="filter-channel">
      {words.channel}
      <select name="channel" defaultValue={channel ?? ''}>
        <option value="">{words.channelAll}</option>
        {PAYMENT_CHANNELS.map((value) => (
          <option key={value} value={value}>
            {words.channels[value]}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Find payments: one search box (phone, receipt or reference), statuses, how they came (a prompt,
 * a till, a paybill) and a date range. The filters live in the address, so a view can be shared,
 * survives a reload, and Back works.
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
    onChange(searchFor(filtersOf(new FormData(event.currentTarget))));
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
      <ChannelFilter channel={filters.channel} />
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
