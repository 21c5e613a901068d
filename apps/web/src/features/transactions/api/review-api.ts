import type { CsrfResponse } from '@mpesa/shared/contract-auth';
import type { ReviewBody } from '@mpesa/shared/contract-admin';
import type { TransactionResponse } from '@mpesa/shared/contract';
import { apiRequest } from '../../../lib/api-client';

/**
 * An owner's review of a flagged payment, or of one whose outcome M-PESA never gave: the note
 * says why, and `status` settles an unknown outcome from the M-PESA statement. Sent with the CSRF
 * token the API gives (docs/decisions/003-operator-sessions.md).
 */
export async function reviewPayment(id: string, body: ReviewBody) {
  const { data } = await apiRequest<CsrfResponse>('/auth/csrf');
  const answer = await apiRequest<TransactionResponse>(
    `/mpesa/transactions/${encodeURIComponent(id)}/review`,
    { method: 'POST', body, headers: { 'X-CSRF-Token': data.token } },
  );
  return answer.data;
}
