import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { POLL_INTERVAL_MS, type RefundStatus, type TransactionStatus } from '@mpesa/shared';
import type { TransactionEvent, TransactionEventsResponse } from '@mpesa/shared/contract-events';
import { apiRequest } from '../../../lib/api-client';
import { transactionKeys } from './transactions-api';

export const transactionEventKeys = {
  /** Under the transaction's own key: whatever refreshes a transaction refreshes its timeline. */
  all: (id: string) => [...transactionKeys.detail(id), 'events'] as const,
  forStatus: (id: string, status: TransactionStatus, refund: RefundStatus | null = null) =>
    [...transactionEventKeys.all(id), status, refund] as const,
};

/**
 * A transaction's timeline, asked for again every 5 s while the transaction is pending, like the
 * transaction itself. Keyed by the status it is shown with (and its refund's, which changes
 * without the payment's status when a refund fails), so that when a poll of the transaction
 * brings a new status the timeline is fetched at once, with the event that changed it, and the
 * previous timeline stays on screen meanwhile.
 */
export function transactionEventsQueryOptions(
  id: string,
  status: TransactionStatus,
  refund: RefundStatus | null = null,
) {
  return queryOptions({
    queryKey: transactionEventKeys.forStatus(id, status, refund),
    queryFn: async () =>
      (
        await apiRequest<TransactionEventsResponse>(
          `/mpesa/transactions/${encodeURIComponent(id)}/events`,
        )
      ).data,
    // Like the transaction's own poll, only once there is a timeline to refresh: a timeline that
    // failed to load says so and stays said, rather than flickering back to "Loading".
    refetchInterval: (query) =>
      status === 'pending' && query.state.data !== undefined ? POLL_INTERVAL_MS : false,
    placeholderData: keepPreviousData,
  });
}

export type { TransactionEvent };
