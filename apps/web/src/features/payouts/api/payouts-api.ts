import { queryOptions } from '@tanstack/react-query';
// Types only: a value from the contracts would bring zod into this screen's download.
import type { BalanceReading, BalanceResponse } from '@mpesa/shared/contract-balance';
import type { Payout, PayoutKind, PayoutListResponse } from '@mpesa/shared/contract-payouts';
import { apiRequest } from '../../../lib/api-client';
import { csrfHeaders } from '../../auth/api/auth-api';

export type { BalanceReading, Payout, PayoutKind };

export const payoutKeys = {
  list: ['payouts'] as const,
  balance: ['payouts', 'balance'] as const,
};

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

/** The latest balance and the day's money; asked again every 2 s while a reading is awaited. */
export function balanceQueryOptions() {
  return queryOptions({
    queryKey: payoutKeys.balance,
    queryFn: async () => (await apiRequest<BalanceResponse>('/balance')).data,
    refetchInterval: (query) => (query.state.data?.latest?.status === 'asked' ? 2000 : false),
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
