import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PAYMENT_CHANNELS, TRANSACTION_STATUSES } from '@mpesa/shared';
import { paths } from '../../../lib/paths';
import { wideScreen } from '../../../lib/wide-screen';
import { LOCALES, type Language } from '../../../i18n/language';
import { useLanguage, useWords } from '../../../i18n/words';
import { searchFor, summaryQueryOptions, type ListFilters } from '../api/transactions-api';
import { historyWords } from '../history-words';
import { statusWords } from '../status-words';

/** How a change of filters came: typed and sent (the search), or a box, a list or a date. */
export type FilterChange = 'searched' | 'picked';

/** A business day, YYYY-MM-DD, `daysAgo` before today in `timeZone`. */
function businessDay(timeZone: string | undefined, daysAgo = 0): string {
  const day = new Date(Date.now() - daysAgo * 86_400_000);
  // Canada writes dates as YYYY-MM-DD, as a date field's value is.
  return day.toLocaleDateString('en-CA', timeZone ? { timeZone } : {});
}

/** The date ranges a shop asks for most, each as its first and last business day. */
function presets(timeZone: string | undefined) {
  const today = businessDay(timeZone);
  return [
    { name: 'today', from: today, to: today },
    { name: 'last7Days', from: businessDay(timeZone, 6), to: today },
    { name: 'thisMonth', from: `${today.slice(0, 8)}01`, to: today },
  ] as const;
}

/** A business day, YYYY-MM-DD, as the page's language writes it: "2 November 2026". */
function dayInWords(day: string | undefined, language: Language): string | undefined {
  return day
    ? new Date(`${day}T12:00:00Z`).toLocaleDateString(LOCALES[language], {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      })
    : undefined;
}

/** What a filter does with a change: applies it, with the rest of what is on screen. */
type Pick = (changed: Partial<ListFilters>) => void;

/**
 * A filter's value as shown: what was just picked, at once (the address follows a moment later,
 * and a box must not untick meanwhile), and the address's whenever that changes (Back, Clear).
 */
function useShown<T>(fromAddress: T, key: (value: T) => string): [T, (value: T) => void] {
  const [shown, setShown] = useState(fromAddress);
  const [followed, setFollowed] = useState(key(fromAddress));
  if (followed !== key(fromAddress)) {
    setFollowed(key(fromAddress));
    setShown(fromAddress);
  }
  return [shown, setShown];
}

/** The statuses, each a box; the list keeps the statuses' own order. */
function StatusFilter({ filters, pick }: { filters: ListFilters; pick: Pick }) {
  const words = useWords(historyWords);
  const statuses = useWords(statusWords);
  const [ticked, setTicked] = useShown(filters.status, (status) => status.join());
  const toggled = (status: string) =>
    ticked.includes(status)
      ? ticked.filter((each) => each !== status)
      : TRANSACTION_STATUSES.filter((each) => each === status || ticked.includes(each));
  return (
    <fieldset className="filter-statuses">
      <legend>{words.status}</legend>
      {TRANSACTION_STATUSES.map((status) => (
        <label key={status} className="filter-status">
          <input
            type="checkbox"
            name="status"
            value={status}
            checked={ticked.includes(status)}
            onChange={() => {
              const now = toggled(status);
              setTicked(now);
              pick({ status: now });
            }}
          />
          {statuses[status]}
        </label>
      ))}
    </fieldset>
  );
}

/** How the payments came: all, or one of a prompt, a till, a paybill (`channel` in the address). */
function ChannelFilter({ channel, pick }: { channel: string | undefined; pick: Pick }) {
  const words = useWords(historyWords);
  const [chosen, setChosen] = useShown(channel ?? '', (value) => value);
  return (
    <label className="filter-channel">
      {words.channel}
      <select
        name="channel"
        value={chosen}
        onChange={(event) => {
          setChosen(event.target.value);
          pick({ channel: event.target.value });
        }}
      >
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
 * A day typed or picked: applied once it is a whole date of this era, or cleared; not while a
 * person is still typing it (Chromium calls the date whole at the year's first digit, 0002-11-02).
 * The field keeps what is typed; it follows the address when that changes otherwise (Back, Clear,
 * a range).
 */
function DateField({
  label,
  name,
  value,
  pick,
}: {
  label: string;
  name: 'from' | 'to';
  value: string | undefined;
  pick: Pick;
}) {
  const field = useRef<HTMLInputElement>(null);
  /**
   * The day this field last took from the address or gave to it. The field follows the address
   * itself (BrowserRouter's own, `window.location`), checked on every render, rather than `value`,
   * the filters this render was drawn with: those can be the ones before a navigation still to be
   * drawn. A Back pressed just after a date was applied can land before the page drew that date
   * (`value` is then unchanged while the field shows the date), and a list arriving just after can
   * draw the page with the filters from before the date (seen in Chromium under load, both).
   */
  const agreed = useRef(value ?? '');
  const follow = useCallback(() => {
    const wanted = new URLSearchParams(window.location.search).get(name) ?? '';
    if (agreed.current === wanted) return;
    agreed.current = wanted;
    if (field.current && field.current.value !== wanted) field.current.value = wanted;
  }, [name]);
  useEffect(() => follow());
  // Back and Forward move the address whether or not the page is drawn again soon.
  useEffect(() => {
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, [follow]);
  const changed = (input: HTMLInputElement) => {
    const whole = /^(\d{4})-\d{2}-\d{2}$/.exec(input.value);
    const cleared = input.value === '' && !input.validity.badInput;
    if ((whole && Number(whole[1]) >= 1900) || cleared) {
      agreed.current = input.value;
      pick({ [name]: input.value });
    }
  };
  return (
    <label>
      {label}
      <input
        ref={field}
        type="date"
        name={name}
        defaultValue={value ?? ''}
        onChange={(event) => changed(event.target)}
      />
    </label>
  );
}

/** From and to, and the ranges a shop asks for most, in one press. */
function DateFilter({ filters, pick }: { filters: ListFilters; pick: Pick }) {
  const words = useWords(historyWords);
  // The business's days, as the figures count them (the browser's own until they have come).
  const timeZone = useQuery(summaryQueryOptions()).data?.timeZone;
  const language = useLanguage();
  return (
    <>
      <DateField label={words.from} name="from" value={filters.from} pick={pick} />
      <DateField label={words.to} name="to" value={filters.to} pick={pick} />
      <div className="filter-presets" role="group" aria-label={words.dateRanges}>
        {presets(timeZone).map(({ name, from, to }) => (
          <button
            key={name}
            type="button"
            className="button button-secondary"
            aria-pressed={filters.from === from && filters.to === to}
            onClick={() => pick({ from, to })}
          >
            {words.presets[name]}
          </button>
        ))}
      </div>
      {(filters.from || filters.to) && (
        <p className="filter-range">
          {words.range(dayInWords(filters.from, language), dayInWords(filters.to, language))}
        </p>
      )}
    </>
  );
}

/** How many of the filters beside the search are in use. */
function inUse(filters: ListFilters): number {
  return filters.status.length + [filters.channel, filters.from, filters.to].filter(Boolean).length;
}

/**
 * The filters beside the search, folded on a phone unless some are in use, so that the payments
 * start near the top of its screen; open on a wider one. Folded or not as the page opens, then as
 * the person leaves them.
 */
function MoreFilters({ filters, children }: { filters: ListFilters; children: ReactNode }) {
  const words = useWords(historyWords);
  const [openAtFirst] = useState(() => wideScreen() || inUse(filters) > 0);
  const count = inUse(filters);
  return (
    <details className="more-filters" open={openAtFirst}>
      <summary>{count > 0 ? words.filtersInUse(count) : words.filters}</summary>
      <div className="more-filters-body">{children}</div>
    </details>
  );
}

/**
 * Find payments: one search box (phone, receipt or reference), statuses, how they came (a prompt,
 * a till, a paybill) and a date range. A box, the list, a date or a range is applied as soon as it
 * is picked; the search when it is sent (Enter, or Apply). The filters live in the address, so a
 * view can be shared, survives a reload, and Back works.
 */
export function HistoryFilters({
  filters,
  onChange,
}: {
  filters: ListFilters;
  onChange: (search: string, how: FilterChange) => void;
}) {
  const words = useWords(historyWords);
  const form = useRef<HTMLFormElement>(null);
  /** The filters on screen: those in the address, the search as typed, and what just changed. */
  const shown = (changed: Partial<ListFilters>): string => {
    const q = String(new FormData(form.current ?? undefined).get('q') ?? '').trim();
    const next: ListFilters = { ...filters, q, ...changed };
    for (const name of ['channel', 'from', 'to', 'q'] as const) if (!next[name]) delete next[name];
    return searchFor(next);
  };
  const pick: Pick = (changed) => onChange(shown(changed), 'picked');
  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onChange(shown({}), 'searched');
  };

  return (
    <form
      ref={form}
      className="history-filters"
      role="search"
      aria-label={words.findTransactions}
      onSubmit={send}
    >
      <label className="filter-search">
        {words.search}
        {/* Typed freely, and sent: anew whenever the address's search changes (Back, Clear). */}
        <input
          key={filters.q ?? ''}
          type="search"
          name="q"
          defaultValue={filters.q ?? ''}
          placeholder={words.searchPlaceholder}
          maxLength={100}
        />
      </label>
      <MoreFilters filters={filters}>
        <StatusFilter filters={filters} pick={pick} />
        <ChannelFilter channel={filters.channel} pick={pick} />
        <DateFilter filters={filters} pick={pick} />
      </MoreFilters>
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
