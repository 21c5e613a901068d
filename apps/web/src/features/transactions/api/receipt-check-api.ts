import { queryOptions } from '@tanstack/react-query';
import type { ReceiptCheck } from '@mpesa/shared/contract';
import { apiRequest } from '../../../lib/api-client';
import { csrfHeaders } from '../../auth/api/auth-api';

/** How often a receipt check is asked about while M-PESA's answer is awaited. */
export const RECEIPT_CHECK_POLL_MS = 3000;

export const receiptCheckKeys = {
  one: (id: string) => ['receipt-checks', id] as const,
};

/**
 * Asks M-PESA, through the API, about a till or paybill payment whose confirmation never came, by
 * the receipt from the payer's SMS (POST /api/mpesa/receipt-checks). Sent with the CSRF token, as
 * every change a signed-in operator makes (with no one signed in, the token is not needed and
 * does no harm).
 */
export async function askAboutReceipt(receipt: string): Promise<ReceiptCheck> {
  const answer = await apiRequest<{ data: ReceiptCheck }>('/mpesa/receipt-checks', {
    method: 'POST',
    body: { receipt },
    headers: await csrfHeaders(),
  });
  return answer.data;
}

/** A receipt check, asked for again every 3 s until M-PESA has answered (not `asked`). */
export function receiptCheckQueryOptions(id: string) {
  return queryOptions({
    queryKey: receiptCheckKeys.one(id),
    queryFn: async () =>
      (await apiRequest<{ data: ReceiptCheck }>(`/mpesa/receipt-checks/${encodeURIComponent(id)}`))
        .data,
    // The check as the API made it is kept first (receipt-check.tsx): asked again in 3 s, not at once.
    staleTime: RECEIPT_CHECK_POLL_MS,
    refetchInterval: (query) =>
      query.state.data?.status === 'asked' ? RECEIPT_CHECK_POLL_MS : false,
  });
}
