import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { POLL_INTERVAL_MS } from '@mpesa/shared';
import type { Language } from '../../../i18n/language';
import type {
  SelectionTotals,
  Summary,
  Transaction,
  TransactionListResponse,
  TransactionResponse,
  TransactionView,
} from '@mpesa/shared/contract';
import { apiRequest, apiUrl, isRefusal } from '../../../lib/api-client';

/**
 * A query whose last attempt failed for want of an answer (not a refusal, such as a 404): the
 * screen says so, and asks again every 5 s until it hears from the server, so that a payer on a weak network is never left with a stale status and no word.
 */
function outOfTouch(state: { error: unknown; errorUpdatedAt: number; dataUpdatedAt: number }) {
  return state.errorUpdatedAt > state.dataUpdatedAt && !isRefusal(state.error);
}

/** What the history shows, as the address says it (the API judges the values). */
export interface ListFilters {
  status: string[];
  /** How the payments came: prompt, till or paybill (as the address says it). */
  channel?: string;
  from?: string;
  to?: string;
  q?: string;
}

export const transactionKeys = {
  all: ['transactions'] as const,
  list: (filters: ListFilters) => [...transactionKeys.all, 'list', filters] as const,
  detail: (id: string) => [...transactionKeys.all, 'detail', id] as const,
  summary: () => [...transactionKeys.all, 'summary'] as const,
};

/** The figures at a glance, fresh every time the history is looked at. */
export function summaryQueryOptions() {
  return queryOptions({
    queryKey: transactionKeys.summary(),
    queryFn: async () => (await apiRequest<{ data: Summary }>('/mpesa/summary')).data,
    refetchInterval: POLL_INTERVAL_MS * 6,
  });
}

/**
 * What the filters select adds up to, over the whole selection; asked only when some filter is in
 * use (the figures at a glance say what all of it adds up to by period).
 */
export function selectionTotalsQueryOptions(filters: ListFilters) {
  return queryOptions({
    queryKey: [...transactionKeys.all, 'totals', filters] as const,
    queryFn: async () =>
      (
        await apiRequest<{ data: SelectionTotals }>(
          `/mpesa/transactions/totals${searchFor(filters)}`,
        )
      ).data,
    enabled: searchFor(filters) !== '',
  });
}

/**
 * The filters in an address's query string: `?status=success&channel=till&from=2026-11-01&q=0712…`.
 */
export function filtersFromSearch(search: URLSearchParams): ListFilters {
  const text = (name: string) => search.get(name)?.trim() || undefined;
  const channel = text('channel');
  const from = text('from');
  const to = text('to');
  const q = text('q');
  return {
    status: search
      .getAll('status')
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter(Boolean),
    ...(channel ? { channel } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(q ? { q } : {}),
  };
}

/** The filters (and a page's cursor) as a query string; empty when there are none. */
export function searchFor(filters: ListFilters, cursor?: string): string {
  const search = new URLSearchParams();
  for (const status of filters.status) search.append('status', status);
  for (const name of ['channel', 'from', 'to', 'q'] as const) {
    const value = filters[name];
    if (value) search.set(name, value);
  }
  if (cursor) search.set('cursor', cursor);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * The CSV of everything the filters select (the browser downloads it), its header row in the
 * screens' language.
 */
export function exportUrl(filters: ListFilters, language: Language = 'en'): string {
  const search = searchFor(filters);
  const lang = language === 'en' ? '' : `${search ? '&' : '?'}lang=${language}`;
  return apiUrl(`/mpesa/transactions/export${search}${lang}`);
}

/**
 * The history, a page at a time ("Load more"), asked for again every 5 s while any row shown is
 * pending, so that a person watching sees statuses change, and while it could not be loaded.
 */
export function transactionsQueryOptions(filters: ListFilters) {
  return infiniteQueryOptions({
    queryKey: transactionKeys.list(filters),
    queryFn: ({ pageParam }) =>
      apiRequest<TransactionListResponse>(`/mpesa/transactions${searchFor(filters, pageParam)}`),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.data.some((row) => row.status === 'pending')) ||
      outOfTouch(query.state)
        ? POLL_INTERVAL_MS
        : false,
  });
}

/** Whether M-PESA's answer about something on the payment's page is awaited. */
function awaited(view: TransactionView | undefined): boolean {
  return view?.status === 'pending' || view?.merchant?.refund?.status === 'requested';
}

/**
 * One transaction, asked for again every 5 s while it is pending or its refund waits for M-PESA's
 * answer, and no more once neither does; and while it could not be brought up to date.
 */
export function transactionQueryOptions(id: string) {
  return queryOptions({
    queryKey: transactionKeys.detail(id),
    queryFn: async () =>
      (await apiRequest<TransactionResponse>(`/mpesa/transactions/${encodeURIComponent(id)}`)).data,
    refetchInterval: (query) =>
      awaited(query.state.data) || outOfTouch(query.state) ? POLL_INTERVAL_MS : false,
  });
}

export type { Transaction, TransactionView };
