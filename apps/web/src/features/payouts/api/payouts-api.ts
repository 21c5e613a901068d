import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { POLL_INTERVAL_MS } from '@mpesa/shared';
// Types only: a value from the contracts would bring zod into this screen's download.
import type { BalanceReading, BalanceResponse } from '@mpesa/shared/contract-balance';
import type {
  Payout,
  PayoutKind,
  PayoutListResponse,
  PayoutStatus,
  PayoutSummary,
} from '@mpesa/shared/contract-payouts';
import { apiRequest, apiUrl } from '../../../lib/api-client';
import { csrfHeaders } from '../../auth/api/auth-api';

export type { BalanceReading, Payout, PayoutKind, PayoutStatus, PayoutSummary };

export const payoutKeys = {
  list: ['payouts'] as const,
  balance: ['payouts', 'balance'] as const,
  summary: ['payouts', 'summary'] as const,
  history: (filters: MoneyOutFilters) => ['payouts', 'history', filters] as const,
};

/** Which payouts the history's Money out shows: as its address says (`?money=out&…`). */
export interface MoneyOutFilters {
  status?: PayoutStatus | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const PAYOUT_STATUSES: readonly PayoutStatus[] = [
  'proposed',
  'declined',
  'sending',
  'succeeded',
  'failed',
  'unknown',
];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters an address holds; anything it cannot be is left out (the API checks the rest). */
export function moneyOutFiltersFrom(search: URLSearchParams): MoneyOutFilters {
  const status = search.get('status') ?? '';
  const day = (name: string) => {
    const value = search.get(name) ?? '';
    return DAY.test(value) ? value : undefined;
  };
  return {
    status: (PAYOUT_STATUSES as readonly string[]).includes(status)
      ? (status as PayoutStatus)
      : undefined,
    from: day('from'),
    to: day('to'),
  };
}

/** The filters as a query string's parameters (none left empty). */
export function moneyOutQuery(filters: MoneyOutFilters, more: Record<string, string> = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, ...more })) {
    if (value) query.set(name, value);
  }
  return query;
}

/** Money out today and this week, and how many wait for approval. */
export function payoutSummaryQueryOptions() {
  return queryOptions({
    queryKey: payoutKeys.summary,
    queryFn: async () => (await apiRequest<{ data: PayoutSummary }>('/payouts/summary')).data,
  });
}

/** The payouts the filters select, a page at a time, newest first. */
export function moneyOutQueryOptions(filters: MoneyOutFilters) {
  return infiniteQueryOptions({
    queryKey: payoutKeys.history(filters),
    queryFn: async ({ pageParam }) => {
      const query = moneyOutQuery(filters, pageParam ? { cursor: pageParam } : {});
      const search = query.size > 0 ? `?${query.toString()}` : '';
      return (await apiRequest<PayoutListResponse>(`/payouts${search}`)).data;
    },
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    // Asked again every 5 s while a payout shown awaits M-PESA's word, or its charge (asked for
    // after a B2C Result, which carries none).
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.payouts.some(awaited)) ? POLL_INTERVAL_MS : false,
  });
}

/** A payout whose outcome, or whose charge, is still to come from M-PESA. */
const awaited = (payout: Payout) =>
  payout.status === 'sending' || (payout.status === 'succeeded' && payout.charge === null);

/** Where the payouts the filters select download as CSV, its header row in `language`. */
export function moneyOutExportUrl(filters: MoneyOutFilters, language: string): string {
  return apiUrl(`/payouts/export?${moneyOutQuery(filters, { lang: language }).toString()}`);
}

/** The kinds, in the order the form offers them. */
export const PAYOUT_KIND_CHOICES: readonly PayoutKind[] = [
  'BusinessPayment',
  'SalaryPayment',
  'PromotionPayment',
  'BusinessPayBill',
  'BusinessBuyGoods',
];

async function change<T>(path: string, body: unknown = {}) {
  return apiRequest<T>(path, { method: 'POST', body, headers: await csrfHeaders() });
}

/** The payouts, newest first; asked again every 2 s while one is on its way. */
export function payoutsQueryOptions() {
  return queryOptions({
    queryKey: payoutKeys.list,
    queryFn: async () => (await apiRequest<PayoutListResponse>('/payouts')).data.payouts,
    refetchInterval: (query) =>
      query.state.data?.some((payout) => payout.status === 'sending') ? 2000 : false,
  });
}

/**
 * The latest balance and the day's money; asked again every 2 s while a reading is awaited (the
 * first, or one asked since the one shown).
 */
export function balanceQueryOptions() {
  return queryOptions({
    queryKey: payoutKeys.balance,
    queryFn: async () => (await apiRequest<BalanceResponse>('/balance')).data,
    refetchInterval: (query) => {
      const { latest, newer } = query.state.data ?? {};
      return (newer ?? latest)?.status === 'asked' ? 2000 : false;
    },
  });
}

export interface PayoutFields {
  kind: PayoutKind;
  to: string;
  account: string;
  amount: string;
  reason: string;
  corrects?: string | undefined;
}

export async function proposePayout(fields: PayoutFields): Promise<Payout> {
  const { account, corrects, ...rest } = fields;
  const body = {
    ...rest,
    ...(fields.kind === 'BusinessPayBill' ? { account } : {}),
    ...(corrects ? { corrects } : {}),
  };
  return (await change<{ data: Payout }>('/payouts', body)).data;
}

export async function proposeBatch(csv: string): Promise<Payout[]> {
  return (await change<{ data: { payouts: Payout[] } }>('/payouts/batches', { csv })).data.payouts;
}

const payoutPath = (id: string) => `/payouts/${encodeURIComponent(id)}`;
const batchPath = (id: string) => `/payouts/batches/${encodeURIComponent(id)}`;

export async function decidePayout(id: string, decision: 'approve' | 'decline') {
  await change(`${payoutPath(id)}/${decision}`);
}

export async function decideBatch(batchId: string, decision: 'approve' | 'decline') {
  await change(`${batchPath(batchId)}/${decision}`);
}

export async function readBalanceNow(): Promise<BalanceReading> {
  return (await change<{ data: BalanceReading }>('/balance/read')).data;
}
