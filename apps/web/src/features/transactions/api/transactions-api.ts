import { queryOptions } from '@tanstack/react-query';
import { POLL_INTERVAL_MS } from '@mpesa/shared';
import type {
  Transaction,
  TransactionListResponse,
  TransactionResponse,
} from '@mpesa/shared/contract';
import { apiRequest } from '../../../lib/api-client';

export const transactionKeys = {
  all: ['transactions'] as const,
  list: () => [...transactionKeys.all, 'list'] as const,
  detail: (id: string) => [...transactionKeys.all, 'detail', id] as const,
};

export function transactionsQueryOptions() {
  return queryOptions({
    queryKey: transactionKeys.list(),
    queryFn: async () => (await apiRequest<TransactionListResponse>('/mpesa/transactions')).data,
  });
}

/** One transaction, asked for again every 5 s while it is pending, and no more once it is not. */
export function transactionQueryOptions(id: string) {
  return queryOptions({
    queryKey: transactionKeys.detail(id),
    queryFn: async () =>
      (await apiRequest<TransactionResponse>(`/mpesa/transactions/${encodeURIComponent(id)}`)).data,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? POLL_INTERVAL_MS : false),
  });
}

export type { Transaction };
